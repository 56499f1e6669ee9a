import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { PostDto } from '#shared/community';
import { fakeNetwork, json } from '#test/fake-network';
import { PostItem } from './post-item.tsx';

const post = (over: Partial<PostDto> = {}): PostDto => ({
  id: 7,
  body: 'Try it at 60 first.',
  userId: 3,
  user: 'Anna',
  admin: false,
  avatarUrl: '',
  profileUrl: '/profile/anna',
  permalink: '/forums/topic/1',
  mentorshipPermalink: '/mentorship/forums/topic/1',
  createdAt: new Date().toISOString(),
  editedAt: null,
  trashed: false,
  phase: null,
  parentId: null,
  replyingTo: null,
  replyingToPermalink: null,
  numLikes: 0,
  authLiked: false,
  attachments: [],
  videos: [],
  canEdit: false,
  children: [],
  moreChildren: 0,
  ...over,
});

const show = (p: PostDto) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PostItem
        post={p}
        editing={false}
        onEdit={() => undefined}
        onUpdated={() => undefined}
        onDelete={() => undefined}
      />
    </QueryClientProvider>,
  );

it("isolates the author's name and the name replied to from the words around them", () => {
  // a right-to-left name, and one stored with an override before names were cleaned
  show(post({ user: 'דנה 2', replyingTo: '\u202Eevil', replyingToPermalink: '/forums/topic/1#3' }));
  const author = screen.getByTestId('post-author');
  const bdi = author.querySelector('bdi');
  expect(bdi).not.toBeNull();
  expect(bdi!.textContent).toBe('דנה 2');
  // the time next to the name is outside the isolate
  expect(bdi!.contains(screen.getByText(/ago|now/i))).toBe(false);
  const replied = screen.getByRole('link', { name: '\u202Eevil' });
  expect(replied.querySelector('bdi')?.textContent).toBe('\u202Eevil');
});

describe('editing a post', () => {
  const fetchMock = fakeNetwork();

  /** A post of the member's own in its thread, with the thread's editing state. */
  function Editable({ p }: { p: PostDto }) {
    const [editing, setEditing] = useState(false);
    const [current, setCurrent] = useState(p);
    return (
      <QueryClientProvider client={new QueryClient()}>
        <PostItem
          post={current}
          editing={editing}
          onEdit={setEditing}
          onUpdated={setCurrent}
          onDelete={() => undefined}
        />
        {/* the thread turns the Edit link into the in-place editor */}
        <button type="button" onClick={() => setEditing(true)}>
          start editing
        </button>
      </QueryClientProvider>
    );
  }

  async function startEditing() {
    const user = userEvent.setup();
    render(<Editable p={post({ canEdit: true })} />);
    await user.click(screen.getByRole('button', { name: 'start editing' }));
    return user;
  }

  it("marks the text with the server's message under it, announces it and moves focus there", async () => {
    fetchMock.mockResolvedValueOnce(
      json(422, { message: 'The given data was invalid.', errors: { body: ['Links to that site are not allowed.'] } }),
    );
    const user = await startEditing();
    const text = screen.getByLabelText('Edit post');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Edit post.');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(text.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Links to that site are not allowed.',
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(text));
    await user.type(text, '!');
    expect(text).not.toHaveAttribute('aria-invalid');
  });

  it("says a failure about no field as the form's own and gives focus back to Save", async () => {
    fetchMock.mockResolvedValueOnce(json(403, { message: 'This topic is locked.' }));
    const user = await startEditing();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This topic is locked.');
    expect(screen.getByLabelText('Edit post')).not.toHaveAttribute('aria-invalid');
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' })));
  });

  it('gives focus back to the Edit link after Save and after Escape', async () => {
    fetchMock.mockResolvedValueOnce(json(200, post({ canEdit: true, body: 'Try it at 50 first.' })));
    const user = await startEditing();
    const text = screen.getByLabelText('Edit post');
    await user.clear(text);
    await user.type(text, 'Try it at 50 first.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Try it at 50 first.')).toBeInTheDocument();
    const edit = () => screen.getByRole('link', { name: 'Edit' });
    await vi.waitFor(() => expect(document.activeElement).toBe(edit()));

    await user.click(screen.getByRole('button', { name: 'start editing' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('Edit post')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(edit()));
  });
});

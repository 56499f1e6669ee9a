import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { setPageConfig } from '#client/lib/page-config.ts';
import { ProfileWall } from './profile-wall.tsx';

// Only the network (a third party to the component) is faked.
const fetchMock = vi.fn();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.innerHTML = '<meta name="csrf-token" content="tok">';
  setPageConfig({ authId: 3, authName: 'Ann' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  setPageConfig({});
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function post(answer: Response) {
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? answer : json(200, []),
  );
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProfileWall slug="ann" ownerId={3} />
    </QueryClientProvider>,
  );
  const box = screen.getByLabelText('Write on this wall');
  await user.type(box, 'Nice groove');
  await user.click(screen.getByRole('button', { name: 'Post' }));
  return { user, box };
}

it('marks the comment the server refuses, announces it and moves focus there', async () => {
  const { user, box } = await post(json(422, { message: 'x', errors: { body: [COMMUNITY_MESSAGES.bodyRequired] } }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Write on this wall.');
  expect(box).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(box.getAttribute('aria-describedby')!)).toHaveTextContent(
    COMMUNITY_MESSAGES.bodyRequired,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(box));
  await user.type(box, '!');
  expect(box).not.toHaveAttribute('aria-invalid');
});

it('a failure about no field says the form’s message and gives focus back to Post', async () => {
  const { box } = await post(new Response('oops', { status: 500 }));
  expect(await screen.findByRole('alert')).toHaveTextContent(COMMUNITY_MESSAGES.wallPostFailed);
  expect(box).not.toHaveAttribute('aria-invalid');
  expect(box).toHaveValue('Nice groove');
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Post' })));
});

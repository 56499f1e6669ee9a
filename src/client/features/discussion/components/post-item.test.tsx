import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it } from 'vitest';
import type { PostDto } from '#shared/community';
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

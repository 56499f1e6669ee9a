import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { setPageConfig } from '#client/lib/page-config.ts';
import { TopicView } from './topic-view.tsx';

const topic = {
  id: 4,
  title: 'Moeller stroke: where does the whip come from?',
  url: '/forums/technique/4',
  createdAt: '2026-11-01T10:00:00.000Z',
  authWatching: false,
  authLiked: false,
  numLikes: 0,
  numComments: 1,
  pinned: false,
  locked: false,
  hidden: false,
  categoryId: 1,
  categorySlug: 'technique',
  categoryTitle: 'Technique',
};
beforeEach(() => {
  setPageConfig({ authId: 3, authName: 'Ann', entitlements: ['membership'] });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ data: [{ topic, user: null, posts: [] }] }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  setPageConfig(null);
  window.history.replaceState(null, '', '/');
});

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TopicView topicId={4} variant="page" renderDiscussion={() => <p>The thread</p>} />
    </QueryClientProvider>,
  );

it('offers "Jump to latest comment" on the whole discussion', async () => {
  show();
  expect(await screen.findByRole('button', { name: 'Jump to latest comment' })).toBeInTheDocument();
});

it('does not offer it in thread mode (one conversation, from the address hash)', async () => {
  window.history.replaceState(null, '', '/forums/technique/4#17');
  show();
  await screen.findByText('The thread');
  expect(screen.queryByRole('button', { name: 'Jump to latest comment' })).toBeNull();
});

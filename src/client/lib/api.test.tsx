import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID } from '#shared/constants';

/*
 * First answers (src/server/plugins/first-answers.ts): a GET the page's block answers is taken from
 * there once, only on the address the page came with and in its first moments; anything else asks the
 * server. The fetch below stands for the network.
 */
let fetched: string[];
beforeEach(() => {
  fetched = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify({ from: 'server', url }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  window.history.replaceState(null, '', '/lessons/1');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.remove();
});

/** api.ts as a page with this block loads it (it reads the block once, when the module runs) */
async function pageWith(block: string) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = FIRST_ANSWERS_ELEMENT_ID;
  el.textContent = block;
  document.body.append(el);
  vi.resetModules();
  return import('./api.ts');
}

it('answers a read from the page once, for its exact address; the next read asks the server', async () => {
  const { get } = await pageWith(JSON.stringify({ '/api/lessons/1': { data: { id: 1, title: 'From the page' } } }));
  // the block is read when the page starts, and leaves the document
  expect(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)).toBeNull();
  expect(await get('/api/lessons/1')).toEqual({ data: { id: 1, title: 'From the page' } });
  expect(fetched).toEqual([]);
  expect(await get('/api/lessons/1')).toEqual({ from: 'server', url: '/api/lessons/1' });
  expect(await get('/api/lessons/1?x=1')).toEqual({ from: 'server', url: '/api/lessons/1?x=1' });
  expect(fetched).toEqual(['/api/lessons/1', '/api/lessons/1?x=1']);
});

it('does not answer once the browser has moved to another address', async () => {
  const { get } = await pageWith(JSON.stringify({ '/notifications/recent': { data: [], unread_count: 3 } }));
  window.history.pushState(null, '', '/lessons/2');
  expect(await get('/notifications/recent')).toEqual({ from: 'server', url: '/notifications/recent' });
  // nor when it comes back: the answers were dropped
  window.history.pushState(null, '', '/lessons/1');
  expect(await get('/notifications/recent')).toEqual({ from: 'server', url: '/notifications/recent' });
});

it('does not answer after the first moments of the page', async () => {
  const { get, FIRST_ANSWERS_MS } = await pageWith(
    JSON.stringify({ '/notifications/recent': { data: [], unread_count: 3 } }),
  );
  vi.spyOn(performance, 'now').mockReturnValue(FIRST_ANSWERS_MS + 1);
  expect(await get('/notifications/recent')).toEqual({ from: 'server', url: '/notifications/recent' });
});

it('asks the server when the block is damaged, and never answers a write from it', async () => {
  const damaged = await pageWith('{"/api/lessons/1": ');
  expect(await damaged.get('/api/lessons/1')).toEqual({ from: 'server', url: '/api/lessons/1' });
  const meta = document.createElement('meta');
  meta.name = 'csrf-token';
  meta.content = 'token';
  document.head.append(meta);
  const { post } = await pageWith(JSON.stringify({ '/journal': { ok: true } }));
  expect(await post('/journal', {})).toEqual({ from: 'server', url: '/journal' });
  meta.remove();
});

it('a peek leaves the answer for the render React commits; once taken, reads ask the server', async () => {
  const { firstAnswerPeek, get } = await pageWith(
    JSON.stringify({ '/posts?id=1&type=forumtopic': { posts: [], more: false, from: null } }),
  );
  // a render React drops, then the one it commits: both see the answer
  expect(firstAnswerPeek('/posts?id=1&type=forumtopic')?.answer).toEqual({ posts: [], more: false, from: null });
  const committed = firstAnswerPeek('/posts?id=1&type=forumtopic');
  expect(committed?.answer).toEqual({ posts: [], more: false, from: null });
  expect(firstAnswerPeek('/posts?id=2&type=forumtopic')).toBeUndefined();
  committed!.take();
  expect(firstAnswerPeek('/posts?id=1&type=forumtopic')).toBeUndefined();
  expect(await get('/posts?id=1&type=forumtopic')).toEqual({ from: 'server', url: '/posts?id=1&type=forumtopic' });
  expect(fetched).toEqual(['/posts?id=1&type=forumtopic']);
});

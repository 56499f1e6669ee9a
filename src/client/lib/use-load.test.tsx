import { act, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID } from '#shared/constants';
import { useLoad } from './use-load.ts';

// useLoad (the public checkouts' reads): pending, then the answer or the failure; one request
// for components that mount together; a new key reads again and never shows the old key's answer.
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Show({ id, k, read }: { id: string; k: string; read: () => Promise<string> }) {
  const q = useLoad(k, read);
  return <p data-testid={id}>{q.isPending ? 'pending' : q.isError ? `error ${String(q.error)}` : `data ${q.data}`}</p>;
}

it('shares one request between components, then answers each', async () => {
  const answer = deferred<string>();
  let calls = 0;
  const read = () => {
    calls += 1;
    return answer.promise;
  };
  render(
    <>
      <Show id="a" k="same" read={read} />
      <Show id="b" k="same" read={read} />
    </>,
  );
  expect(screen.getByTestId('a').textContent).toBe('pending');
  await act(async () => answer.resolve('plan'));
  expect(screen.getByTestId('a').textContent).toBe('data plan');
  expect(screen.getByTestId('b').textContent).toBe('data plan');
  expect(calls).toBe(1);
});

it('says a read failed, and a new key reads again without showing the old answer', async () => {
  const first = deferred<string>();
  const second = deferred<string>();
  const { rerender } = render(<Show id="c" k="one" read={() => first.promise} />);
  await act(async () => first.reject('404'));
  expect(screen.getByTestId('c').textContent).toBe('error 404');
  rerender(<Show id="c" k="two" read={() => second.promise} />);
  expect(screen.getByTestId('c').textContent).toBe('pending');
  await act(async () => second.resolve('other'));
  expect(screen.getByTestId('c').textContent).toBe('data other');
});

it('shows the answer the page carries in its first render, without asking; a remount asks the server', async () => {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = FIRST_ANSWERS_ELEMENT_ID;
  block.textContent = JSON.stringify({ '/api/plan': 'from the page' });
  document.body.append(block);
  window.history.replaceState(null, '', '/checkout');
  // use-load.ts and api.ts as a page with this block loads them (api.ts reads it once, when it runs)
  vi.resetModules();
  const { useLoad: load } = await import('./use-load.ts');
  const { get } = await import('./api.ts');
  const asked: string[] = [];
  const read = () => {
    asked.push('/api/plan');
    return get<string>('/api/plan');
  };
  const renders: string[] = [];
  function Plan() {
    const q = load('plan', read, '/api/plan');
    renders.push(q.isPending ? 'pending' : `data ${q.data}`);
    return <p data-testid="plan">{q.isPending ? 'pending' : `data ${q.data}`}</p>;
  }
  const { unmount } = render(<Plan />);
  expect(renders[0]).toBe('data from the page');
  expect(asked).toEqual([]);
  unmount();
  renders.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify('from the server'), { status: 200 })),
  );
  render(<Plan />);
  expect(renders[0]).toBe('pending');
  await act(async () => undefined);
  expect(screen.getByTestId('plan').textContent).toBe('data from the server');
  expect(asked).toEqual(['/api/plan']);
  vi.unstubAllGlobals();
});

import { act, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
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

import { Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy.ts';

const Page = ({ name }: { name: string }) => <p>{`page ${name}`}</p>;

function mount(C: ReturnType<typeof preloadableLazy<{ name: string }>>) {
  // what the first commit shows (render() flushes it; a lazy that suspends resolves only afterwards)
  render(
    <Suspense fallback={<p>loading</p>}>
      <C name="one" />
    </Suspense>,
  );
  return screen.queryByText('loading') ? 'fallback' : screen.queryByText('page one') ? 'page' : 'nothing';
}

it('once preloaded, renders the page in the first commit, without its fallback', async () => {
  let loads = 0;
  const C = preloadableLazy(async () => {
    loads++;
    return { default: Page };
  });
  await C.preload();
  await C.preload();
  expect(mount(C)).toBe('page');
  expect(loads).toBe(1);
});

it('not preloaded, it suspends like React.lazy and then shows the page', async () => {
  const C = preloadableLazy(async () => ({ default: Page }));
  expect(mount(C)).toBe('fallback');
  expect(await screen.findByText('page one')).toBeTruthy();
});

it('a failed preload is tried again by the next one', async () => {
  let calls = 0;
  const C = preloadableLazy(async () => {
    calls++;
    if (calls === 1) throw new Error('offline');
    return { default: Page };
  });
  await expect(C.preload()).rejects.toThrow('offline');
  await C.preload();
  expect(calls).toBe(2);
  expect(mount(C)).toBe('page');
});

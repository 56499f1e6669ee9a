import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { COMMUNITY } from '#shared/community';
import { scrollToPost } from './thread-list.tsx';

// jsdom lays nothing out, so it has neither scrolling nor media queries; the browser specs scroll for real
const { scrollIntoView } = Element.prototype;
beforeEach(() => {
  vi.useFakeTimers();
  Element.prototype.scrollIntoView = vi.fn();
  vi.stubGlobal('matchMedia', vi.fn().mockReturnValue({ matches: false }));
  document.body.innerHTML = `
    <button id="post">Post</button>
    <article id="41" tabindex="-1">A double pedal.</article>
    <textarea aria-label="Reply to Sam"></textarea>`;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Element.prototype.scrollIntoView = scrollIntoView;
  document.body.innerHTML = '';
});

it('scrolls to the new post and moves focus to it', () => {
  document.getElementById('post')!.focus();
  scrollToPost(41);
  vi.advanceTimersByTime(COMMUNITY.scrollDelayMs);
  expect(document.activeElement?.id).toBe('41');
  expect(Element.prototype.scrollIntoView).toHaveBeenCalledOnce();
});

it('leaves focus where the member moved it before the scroll', () => {
  document.getElementById('post')!.focus();
  scrollToPost(41);
  document.querySelector('textarea')!.focus();
  vi.advanceTimersByTime(COMMUNITY.scrollDelayMs);
  expect(document.activeElement?.tagName).toBe('TEXTAREA');
});

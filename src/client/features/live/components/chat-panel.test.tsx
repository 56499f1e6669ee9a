import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { LIVE_MESSAGES } from '#shared/live';
import { setPageConfig } from '#client/lib/page-config.ts';
import { ChatPanel } from './chat-panel.tsx';

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

it("a refused message goes back in the input, marked with the server's words under it, and is announced", async () => {
  fetchMock.mockImplementation(async (url: string) =>
    url.startsWith('/live-chat/get')
      ? json(200, { messages: [], topic: null, from: null, more: false })
      : json(429, { message: 'x', errors: { body: ['You are sending messages too quickly.'] } }),
  );
  const user = userEvent.setup();
  render(<ChatPanel showId={9} live chatOpen />);
  const input = screen.getByPlaceholderText(COMMUNITY_MESSAGES.chatPlaceholder);
  await user.type(input, 'Hello{Enter}');
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Message.');
  expect(input).toHaveValue('Hello');
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(input.getAttribute('aria-describedby')!)).toHaveTextContent(
    'You are sending messages too quickly.',
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(input));
  await user.type(input, '!');
  expect(input).not.toHaveAttribute('aria-invalid');
});

it('a long pinned topic shows three lines until asked for in full', async () => {
  const topic = `Tonight: ${'https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG'.repeat(4)}`;
  fetchMock.mockImplementation(async () => json(200, { messages: [], topic, from: null, more: false }));
  // the browser's layout, which jsdom does not do: the topic's text is taller than its three lines
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  const heights = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(200);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(72);
  const user = userEvent.setup();
  render(<ChatPanel showId={9} live chatOpen />);
  await screen.findByTestId('chat-topic');
  const text = document.getElementById('chat-topic-text')!;
  expect(text).toHaveTextContent(topic);
  expect(text).toHaveClass('line-clamp-3');
  const more = screen.getByRole('button', { name: LIVE_MESSAGES.topicWhole });
  expect(more).toHaveAttribute('aria-expanded', 'false');
  await user.click(more);
  expect(text).not.toHaveClass('line-clamp-3');
  await user.click(screen.getByRole('button', { name: LIVE_MESSAGES.topicLess }));
  expect(text).toHaveClass('line-clamp-3');
  heights.mockRestore();
  vi.restoreAllMocks();
});

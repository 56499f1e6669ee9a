import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { NotificationMenu } from './notification-menu.tsx';

const fetchMock = vi.fn();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

function renderMenu(area: 'main' | 'mentorship' = 'main') {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <NotificationMenu area={area} />
    </QueryClientProvider>,
  );
}

it('says "Nothing here yet" when there are none', async () => {
  fetchMock.mockResolvedValue(json({ data: [], unread_count: 0 }));
  renderMenu();
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Notifications' }));
  expect(await screen.findByText(MESSAGES.notificationsEmpty)).toBeInTheDocument();
  expect(fetchMock.mock.calls[0]![0]).toBe('/notifications/recent');
});

it('lists recent items with an unread badge; the mentorship menu reads its own list', async () => {
  fetchMock.mockResolvedValue(
    json({
      data: [
        { id: 7, body: '<strong>Plan</strong> ready', created_at: new Date().toISOString(), unread: true, url: null },
      ],
      unread_count: 1,
    }),
  );
  renderMenu('mentorship');
  const button = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
  expect(fetchMock.mock.calls[0]![0]).toBe('/mentorship/notifications/recent');
  await userEvent.setup().click(button);
  const item = await screen.findByRole('menuitem', { name: /Plan ready/ });
  expect(item).toHaveAttribute('href', '/mentorship/notifications/7');
});

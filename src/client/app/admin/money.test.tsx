import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { AdminOverviewPage } from './overview.tsx';
import { OrdersPage } from './commerce/pages.tsx';

// The admin console writes every amount as people read money: "$24,813.00", "$750.00".

const fetchMock = vi.fn();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const page = (ui: React.ReactNode, at = '/admin') =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

it('the dashboard writes the revenue with thousands separators and cents', async () => {
  fetchMock.mockResolvedValue(
    json({
      members: 1200,
      new_members_30d: 80,
      active_subscriptions: 310,
      mentorship_students: 12,
      open_reports: 0,
      paid_orders_30d: 95,
      revenue_30d_cents: 2481300,
      leads_30d: 4,
      recent_changes: [],
    }),
  );
  page(<AdminOverviewPage />);
  expect(await screen.findByText('$24,813.00')).toBeInTheDocument();
  expect(screen.queryByText('$24813')).toBeNull();
});

it('the orders list writes each amount in its currency', async () => {
  const order = {
    id: 41,
    buyer: { id: 3, name: 'Maya Chen', email: 'maya@example.test' },
    kind: 'membership',
    product: 'academy',
    plan: 'lifetime',
    amount_cents: 75000,
    currency: 'usd',
    provider: 'sandbox',
    provider_ref: 'ch_1',
    status: 'paid',
    created_at: '2026-11-26T10:00:00.000Z',
    paid_at: '2026-11-26T10:00:00.000Z',
  };
  fetchMock.mockResolvedValue(json({ data: [order], page: 1, pages: 1, total: 1 }));
  page(<OrdersPage />, '/admin/orders');
  expect((await screen.findAllByText('$750.00')).length).toBeGreaterThan(0);
  expect(screen.queryByText(/750\.00 usd/i)).toBeNull();
});

import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import {
  subscriptionActions,
  type BillingCourse,
  type BillingMembership,
  type BillingMentorship,
  type BillingSubscription,
} from '#shared/billing';
import { MembershipsSection } from './memberships-section.tsx';
import { cardSubscription } from '#test/billing-subscription';
import { MentorshipSection } from './mentorship-section.tsx';
import { CoursesSection } from './courses-section.tsx';
import { PaymentsList } from './receipts.tsx';

const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

const RENEWS = '2027-03-04T10:00:00.000Z';

const subscription = (over: Partial<BillingSubscription> = {}) =>
  cardSubscription({ nextBillingDate: RENEWS, ...over });

function bought(sub: BillingSubscription, lifetime = false): BillingMembership {
  const paused = sub.status === 'paused';
  return {
    key: `subscription:${sub.id}`,
    source: 'subscription',
    title: sub.plan === 'yearly' ? 'Yearly membership' : 'Monthly membership',
    status: sub.cancelAtPeriodEnd ? 'ending' : sub.status === 'canceled' ? 'ending' : sub.status,
    price: sub.price,
    currency: 'usd',
    cycle: sub.cycle,
    since: '2026-10-04T10:00:00.000Z',
    renewsAt: paused || sub.cancelAtPeriodEnd ? null : RENEWS,
    endsAt: sub.cancelAtPeriodEnd ? RENEWS : null,
    grantedBy: null,
    paymentMethod: sub.paymentMethod,
    subscriptionId: sub.id,
    actions: subscriptionActions(sub, lifetime),
  };
}

it('a bought membership: plan, price written as money, the next billing date, the card, Upgrade and Cancel or pause', () => {
  const sub = subscription();
  wrap(<MembershipsSection memberships={[bought(sub)]} subscription={sub} />);
  expect(screen.getByRole('heading', { name: 'Your membership' })).toBeInTheDocument();
  expect(screen.getByTestId('billing-plan')).toHaveTextContent('Monthly membership Active');
  expect(screen.getByTestId('billing-price')).toHaveTextContent('$29.00 a month');
  expect(screen.getByTestId('billing-next')).toHaveTextContent('March 4, 2027');
  expect(screen.getByTestId('billing-method')).toHaveTextContent('Visa ending 4242');
  expect(screen.getByRole('button', { name: 'Upgrade' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Cancel or pause membership' })).toBeInTheDocument();
});

it('a paused membership offers Resume and Cancel, and never Upgrade', () => {
  const sub = subscription({ status: 'paused', pausedAt: RENEWS, pauseUsed: true, skipPause: true });
  wrap(<MembershipsSection memberships={[bought(sub)]} subscription={sub} />);
  expect(screen.getByTestId('billing-next')).toHaveTextContent('Paused');
  expect(screen.getByRole('button', { name: 'Resume membership' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Cancel membership' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
});

it('a payment due: the badge says so, no Upgrade and no pause', () => {
  const sub = subscription({ status: 'past_due' });
  wrap(<MembershipsSection memberships={[bought(sub)]} subscription={sub} />);
  expect(screen.getByTestId('billing-plan')).toHaveTextContent('Payment due');
  expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
  expect(screen.getByRole('button', { name: 'Cancel membership' })).toBeInTheDocument();
});

it('a cancelled membership says when it ends and offers nothing', () => {
  const sub = subscription({ cancelAtPeriodEnd: true });
  wrap(<MembershipsSection memberships={[bought(sub)]} subscription={sub} />);
  expect(screen.getByTestId('billing-next')).toHaveTextContent('Ends on March 4, 2027');
  expect(screen.queryByRole('button')).toBeNull();
});

it('lifetime and granted memberships side by side: the price paid once, who granted it and until when', () => {
  const lifetime: BillingMembership = {
    ...bought(subscription()),
    key: 'order:3',
    source: 'lifetime',
    title: 'Lifetime membership',
    status: 'lifetime',
    price: 750_00,
    cycle: null,
    renewsAt: null,
    endsAt: null,
    subscriptionId: null,
    actions: [],
  };
  const granted: BillingMembership = {
    ...lifetime,
    key: 'entitlement:9',
    source: 'granted',
    title: 'Membership',
    status: 'granted',
    price: null,
    paymentMethod: null,
    grantedBy: 'the Backbeat team',
    endsAt: '2031-03-04T23:59:59.000Z',
  };
  wrap(<MembershipsSection memberships={[lifetime, granted]} subscription={null} />);
  expect(screen.getByRole('heading', { name: 'Your memberships' })).toBeInTheDocument();
  expect(screen.getByTestId('billing-lifetime')).toHaveTextContent(
    'Lifetime membership: you will never be billed again.',
  );
  expect(screen.getByText('$750.00')).toBeInTheDocument();
  const g = screen.getByTestId('billing-granted');
  expect(within(g).getByText('the Backbeat team')).toBeInTheDocument();
  expect(screen.getByTestId('billing-granted-end')).toHaveTextContent('Until March 4, 2031');
  expect(screen.queryByRole('button')).toBeNull();
});

it('no membership: the way to the plans', () => {
  wrap(<MembershipsSection memberships={[]} subscription={null} />);
  expect(screen.getByText('You do not have a membership yet.')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See membership plans' })).toHaveAttribute('href', '/join');
});

const instalments: BillingMentorship = {
  key: 'mentorship:1',
  title: 'Mentorship programme',
  paymentLabel: '6 monthly payments of $650.00',
  status: 'active',
  mentor: 'Alex Rivera',
  since: '2026-11-26T10:00:00.000Z',
  endsAt: null,
  paid: 650_00,
  total: 3900_00,
  currency: 'usd',
  schedule: {
    amount: 650_00,
    paid: 1,
    total: 6,
    nextDueAt: '2026-12-26T10:00:00.000Z',
    remaining: 3250_00,
    status: 'active',
    paymentMethod: 'Visa ending 4242',
  },
  actions: ['change-card'],
};

it('a mentorship by instalments: payments made, the next one with its date and amount, what remains', () => {
  wrap(<MentorshipSection mentorships={[instalments]} />);
  expect(screen.getByTestId('billing-mentorship-payment')).toHaveTextContent('6 monthly payments of $650.00');
  expect(screen.getByText('1 of 6 payments made')).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: 'Instalments paid' })).toHaveAttribute('aria-valuenow', '17');
  expect(screen.getByTestId('billing-next-instalment')).toHaveTextContent('$650.00 on December 26, 2026');
  expect(screen.getByTestId('billing-remaining')).toHaveTextContent('$3,250.00');
  expect(screen.getByText('Alex Rivera')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Go to your mentorship' })).toHaveAttribute('href', '/mentorship');
});

it('a mentorship paid in full has no schedule; none at all shows no section', () => {
  const { unmount } = wrap(
    <MentorshipSection
      mentorships={[
        {
          ...instalments,
          paymentLabel: 'Paid in full: $3,200.00',
          paid: 3200_00,
          total: 3200_00,
          schedule: null,
          actions: [],
        },
      ]}
    />,
  );
  expect(screen.getByText('Paid in full: $3,200.00')).toBeInTheDocument();
  expect(screen.getByText('$3,200.00')).toBeInTheDocument();
  expect(screen.queryByTestId('billing-schedule')).toBeNull();
  unmount();
  wrap(<MentorshipSection mentorships={[]} />);
  expect(screen.queryByRole('heading', { name: 'Mentorship' })).toBeNull();
});

it('courses owned: the tier and price paid, a granted one, and the way to each', () => {
  const courses: BillingCourse[] = [
    {
      key: 'course:4',
      title: 'Double Kick Basics',
      level: 'Pro',
      url: '/courses/double-kick-basics',
      source: 'bought',
      price: 165_00,
      currency: 'usd',
      since: '2026-11-02T10:00:00.000Z',
    },
    {
      key: 'course:fills-that-flow',
      title: 'Fills That Flow',
      level: null,
      url: '/courses/fills-that-flow',
      source: 'granted',
      price: null,
      currency: 'usd',
      since: '2026-11-03T10:00:00.000Z',
    },
  ];
  wrap(<CoursesSection courses={courses} />);
  expect(screen.getByText('Bought for $165.00 on November 2, 2026')).toBeInTheDocument();
  expect(screen.getByText('Granted on November 3, 2026')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Open course: Double Kick Basics' })).toHaveAttribute(
    'href',
    '/courses/double-kick-basics',
  );
});

it('payments: receipts, credit notes and failed payments in one list, newest first, amounts as money', () => {
  wrap(
    <PaymentsList
      receipts={[
        {
          number: 'R-000041',
          kind: 'receipt',
          item: 'Backbeat membership (Lifetime)',
          amount_cents: 2481300,
          currency: 'usd',
          issued_at: '2026-11-20T10:00:00.000Z',
          refers_to: null,
        },
        {
          number: 'CN-000002',
          kind: 'credit_note',
          item: 'Backbeat membership (Lifetime)',
          amount_cents: -5000,
          currency: 'usd',
          issued_at: '2026-11-26T10:00:00.000Z',
          refers_to: 'R-000041',
        },
      ]}
      failed={[
        {
          id: 9,
          date: '2026-11-22T10:00:00.000Z',
          description: 'Backbeat membership (Monthly)',
          amount: 2900,
          currency: 'usd',
        },
      ]}
    />,
  );
  const rows = within(screen.getByRole('list', { name: 'Payments' })).getAllByRole('listitem');
  expect(rows.map((r) => r.textContent)).toEqual([
    expect.stringContaining('Credit note CN-000002'),
    expect.stringContaining('Payment failed'),
    expect.stringContaining('Receipt R-000041'),
  ]);
  expect(within(rows[0]!).getByText('-$50.00')).toBeInTheDocument();
  expect(within(rows[1]!).getByText('$29.00')).toBeInTheDocument();
  expect(within(rows[2]!).getByText('$24,813.00')).toBeInTheDocument();
  expect(within(rows[2]!).getByRole('link', { name: 'View receipt R-000041' })).toHaveAttribute(
    'href',
    '/account/billing/receipts/R-000041',
  );
  // a failed payment has no receipt to open
  expect(within(rows[1]!).queryByRole('link')).toBeNull();
});

it('cancelling "Change card" gives focus back to the button', async () => {
  const sub = subscription();
  wrap(<MembershipsSection memberships={[bought(sub)]} subscription={sub} />);
  const user = userEvent.setup();
  const change = screen.getByRole('button', { name: 'Change card' });
  await user.click(change);
  await user.click(await screen.findByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('form', { name: 'Update your card' })).toBeNull();
  await vi.waitFor(() => expect(document.activeElement).toBe(change));
});

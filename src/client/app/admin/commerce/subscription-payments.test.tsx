import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it, vi } from 'vitest';
import type { SubscriptionPayments } from '#shared/receipts';
import { fakeNetwork, json } from '#test/fake-network';
import { SubscriptionPaymentsPanel } from './subscription-payments.tsx';

// The refund form shows its errors the way every form does (components/ui/form-feedback.ts).
const fetchMock = fakeNetwork();

const payments: SubscriptionPayments = {
  subscription: { id: 7, member: 'Ann', status: 'active', access_ends_at: null, plan: 'monthly' },
  payments: [
    {
      invoice_id: 11,
      receipt: 'R-000011',
      description: 'Monthly membership',
      amount_cents: 2000,
      refunded_cents: 500,
      currency: 'usd',
      paid_at: '2026-01-02T00:00:00Z',
      latest: true,
    },
  ],
};

async function openRefund() {
  fetchMock.mockResolvedValueOnce(json(200, payments));
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SubscriptionPaymentsPanel id={7} onClose={() => undefined} />
    </QueryClientProvider>,
  );
  await user.click(await screen.findByRole('button', { name: /Refund…/ }));
  return { user, amount: screen.getByLabelText(/Amount to refund/) };
}

const describedBy = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '');

it('shows the server’s refusal under the amount, marks it, announces it and moves focus there', async () => {
  const { user, amount } = await openRefund();
  fetchMock.mockResolvedValueOnce(
    json(422, { message: 'x', errors: { amount_cents: ['The provider refused the refund: card closed'] } }),
  );
  await user.click(screen.getByRole('button', { name: /^Refund \$15\.00/ }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Please correct this field: Amount to refund (at most $15.00).',
  );
  expect(amount).toHaveAttribute('aria-invalid', 'true');
  expect(describedBy(amount)).toHaveTextContent('The provider refused the refund: card closed');
  await vi.waitFor(() => expect(document.activeElement).toBe(amount));
  // typing again takes the mark away
  await user.type(amount, '0');
  expect(amount).not.toHaveAttribute('aria-invalid');
});

it.each([
  ['abc', 'Enter an amount above zero, in dollars and cents.'],
  ['0', 'Enter an amount above zero, in dollars and cents.'],
  ['20', 'At most $15.00 of this payment can still be refunded.'],
])('checks %j before sending, the same way', async (typed, message) => {
  const { user, amount } = await openRefund();
  await user.clear(amount);
  await user.type(amount, typed);
  await user.click(screen.getByRole('button', { name: /^Refund/ }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Please correct this field: Amount to refund (at most $15.00).',
  );
  expect(amount).toHaveAttribute('aria-invalid', 'true');
  expect(describedBy(amount)).toHaveTextContent(message);
  expect(document.activeElement).toBe(amount);
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

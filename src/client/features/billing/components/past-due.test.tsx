import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { DUNNING_MESSAGES } from '#shared/dunning';
import { fakeNetwork, json } from '#test/fake-network';
import { cardSubscription } from '#test/billing-subscription';
import { PastDueSection, UpdateCard } from './past-due.tsx';

// Only the network (a third party to the component) is faked: the billing API and the sandbox card provider.
const fetchMock = fakeNetwork();

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <UpdateCard amount="$29.00" onCancel={() => undefined} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), submit: screen.getByRole('button', { name: 'Save card and pay $29.00' }) };
}

it('without a name, marks the name field, announces it and moves focus there', async () => {
  const { user, submit } = renderForm();
  const name = screen.getByLabelText('Name on card');
  await user.click(submit);
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Name on card.');
  expect(name).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(name.getAttribute('aria-describedby')!)).toHaveTextContent(
    DUNNING_MESSAGES.cardNameRequired,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(name));
  expect(fetchMock).not.toHaveBeenCalled();
  await user.type(name, 'M');
  expect(name).not.toHaveAttribute('aria-invalid');
});

it("a declined card: the provider's words under the card, the card number focused", async () => {
  fetchMock.mockImplementation(async (url: string) =>
    String(url).includes('/account/billing/card/setup')
      ? json(200, { clientSecret: 'seti_secret' })
      : json(200, { error: COMMERCE_MESSAGES.cardDeclined }),
  );
  const { user, submit } = renderForm();
  await user.type(screen.getByLabelText('Name on card'), 'Max Okonkwo');
  await user.type(screen.getByLabelText('Card number'), '4000000000000002');
  await user.type(screen.getByLabelText('Expiry (MM / YY)'), '1240');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.click(submit);
  const number = screen.getByLabelText('Card number');
  await vi.waitFor(() => expect(number).toHaveAttribute('aria-invalid', 'true'));
  expect(document.getElementById(number.getAttribute('aria-describedby')!)).toHaveTextContent(
    COMMERCE_MESSAGES.cardDeclined,
  );
  expect(screen.getByRole('alert')).toHaveTextContent(/^Please correct these 3 fields: Card number/);
  await vi.waitFor(() => expect(document.activeElement).toBe(number));
});

it('cancelling the new card gives focus back to "Update card", which the form took the place of', async () => {
  const sub = cardSubscription({
    status: 'past_due',
    pastDue: {
      amount: 29_00,
      currency: 'usd',
      failedAt: '2027-03-04T10:00:00.000Z',
      retriesDone: 1,
      retriesTotal: 3,
      nextRetryAt: '2027-03-07T10:00:00.000Z',
      graceEndsAt: '2027-03-18T10:00:00.000Z',
      fixUrl: null,
    },
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <PastDueSection sub={sub} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Update card' }));
  await user.click(await screen.findByRole('button', { name: 'Cancel' }));
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Update card' })));
});

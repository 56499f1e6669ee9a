import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it, vi } from 'vitest';
import { CANCEL_REASONS, COMMERCE_MESSAGES } from '#shared/commerce';
import { cardSubscription } from '#test/billing-subscription';
import { openModal } from '#client/components/ui/modal.tsx';
import { CARD_CANCEL_MODAL, CardCancelModal } from './card-cancel-modal.tsx';
import { fakeNetwork } from '#test/fake-network';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

const sub = cardSubscription();

/** through the loss warning and a reason to step 3 */
async function toAlternatives() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CardCancelModal sub={sub} />
    </QueryClientProvider>,
  );
  act(() => openModal(CARD_CANCEL_MODAL));
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Continue' }));
  await user.click(screen.getByRole('radio', { name: CANCEL_REASONS[0].value }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  const step = await screen.findByTestId('cancel-step-3');
  return { user, step };
}

it('step 3 without a choice: the choices are marked, the message is under them and announced, focus goes to the first', async () => {
  const { user, step } = await toAlternatives();
  await user.click(within(step).getByRole('button', { name: 'Continue' }));
  expect(await within(step).findByRole('alert')).toHaveTextContent(
    'Please correct this field: Before you cancel, would one of these help.',
  );
  const group = within(step).getByRole('group');
  expect(group).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(group.getAttribute('aria-describedby')!)).toHaveTextContent(
    COMMERCE_MESSAGES.choiceRequired,
  );
  const radios = within(step).getAllByRole('radio');
  await vi.waitFor(() => expect(document.activeElement).toBe(radios[0]));
  await user.click(radios[1]!);
  expect(group).not.toHaveAttribute('aria-invalid');
  expect(fetchMock).not.toHaveBeenCalled();
});

it("an offer the server refuses: its sentence is the form's announced line and focus goes back to Continue", async () => {
  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify({ message: 'The offer has already been used.' }), {
      status: 422,
      headers: { 'content-type': 'application/json' },
    }),
  );
  const { user, step } = await toAlternatives();
  await user.click(within(step).getAllByRole('radio')[0]!);
  await user.click(within(step).getByRole('button', { name: 'Continue' }));
  expect(await within(step).findByRole('alert')).toHaveTextContent('The offer has already been used.');
  expect(within(step).getByRole('group')).not.toHaveAttribute('aria-invalid');
  await vi.waitFor(() => expect(document.activeElement).toBe(within(step).getByRole('button', { name: 'Continue' })));
});

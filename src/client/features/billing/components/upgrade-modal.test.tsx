import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it, vi } from 'vitest';
import { cardSubscription } from '#test/billing-subscription';
import { openModal } from '#client/components/ui/modal.tsx';
import { fakeNetwork, json } from '#test/fake-network';
import { UPGRADE_MODAL, UpgradeModal } from './upgrade-modal.tsx';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

const sub = cardSubscription();

async function openUpgrade() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <UpgradeModal sub={sub} />
    </QueryClientProvider>,
  );
  act(() => openModal(UPGRADE_MODAL));
  const form = await screen.findByTestId('upgrade-form');
  return { user: userEvent.setup(), form };
}

it('without a choice: the choices are marked, the message is under them and announced, focus goes to the first', async () => {
  const { user, form } = await openUpgrade();
  await user.click(within(form).getByRole('button', { name: 'Confirm upgrade' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: Choose your new plan.');
  const group = within(form).getByRole('group', { name: 'Choose your new plan' });
  expect(group).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(group.getAttribute('aria-describedby')!)).toHaveTextContent(
    'Please choose an upgrade.',
  );
  const radios = within(form).getAllByRole('radio');
  await vi.waitFor(() => expect(document.activeElement).toBe(radios[0]));
  await user.click(radios[1]!);
  expect(group).not.toHaveAttribute('aria-invalid');
  expect(fetchMock).not.toHaveBeenCalled();
});

it("a charge the server refuses: its sentence is the form's announced line and focus goes back to the button", async () => {
  fetchMock.mockResolvedValueOnce(json(402, { message: 'Your card was declined.' }));
  const { user, form } = await openUpgrade();
  await user.click(within(form).getAllByRole('radio')[0]!);
  const button = within(form).getByRole('button', { name: 'Confirm upgrade' });
  await user.click(button);
  expect(await within(form).findByRole('alert')).toHaveTextContent('Your card was declined.');
  await vi.waitFor(() =>
    expect(document.activeElement).toBe(within(form).getByRole('button', { name: 'Confirm upgrade' })),
  );
});

it('an upgrade that goes through is said in the modal, which takes focus', async () => {
  fetchMock.mockResolvedValue(json(200, { message: 'You are on the yearly plan now.' }));
  const { user, form } = await openUpgrade();
  await user.click(within(form).getAllByRole('radio')[0]!);
  await user.click(within(form).getByRole('button', { name: 'Confirm upgrade' }));
  const said = await screen.findByRole('status');
  expect(said).toHaveTextContent('You are on the yearly plan now.');
  await vi.waitFor(() => expect(document.activeElement).toBe(said));
});

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { useConfirm } from './confirm.tsx';

function Asker() {
  const [confirm, dialog] = useConfirm();
  return (
    <>
      <button type="button" onClick={() => void confirm('Remove the week?')}>
        Remove week
      </button>
      {dialog}
    </>
  );
}

it.each([['{Escape}'], ['cancel']])('gives focus back to the button that asked when answered with %s', async (how) => {
  const user = userEvent.setup();
  render(<Asker />);
  const asker = screen.getByRole('button', { name: 'Remove week' });
  await user.click(asker);
  const dialog = await screen.findByRole('alertdialog', { name: 'Please confirm' });
  if (how === 'cancel') await user.click(screen.getByRole('button', { name: 'Cancel' }));
  else await user.keyboard(how);
  await waitFor(() => expect(dialog.isConnected).toBe(false));
  await waitFor(() => expect(document.activeElement).toBe(asker));
});

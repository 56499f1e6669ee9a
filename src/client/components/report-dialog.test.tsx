import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { ReportButton } from './report-dialog.tsx';
import { fakeNetwork, json } from '#test/fake-network';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

async function openDialog() {
  const user = userEvent.setup();
  render(<ReportButton kind="wall" id={7} />);
  await user.click(screen.getByRole('button', { name: 'Report this comment' }));
  return user;
}

it('without a reason, marks the field, announces it and moves focus there; nothing is sent', async () => {
  const user = await openDialog();
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Reason.');
  const reason = screen.getByLabelText('Reason');
  expect(reason).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(reason.getAttribute('aria-describedby')!)).toHaveTextContent(
    COMMUNITY_MESSAGES.reportReasonRequired,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(reason));
  expect(fetchMock).not.toHaveBeenCalled();
  await user.type(reason, 'Spam');
  expect(reason).not.toHaveAttribute('aria-invalid');
});

it("says the server's message about the reported thing as the form's own and focuses the send button", async () => {
  fetchMock.mockResolvedValueOnce(json(422, { message: 'x', errors: { id: ['That comment is gone.'] } }));
  const user = await openDialog();
  await user.type(screen.getByLabelText('Reason'), 'Spam');
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('That comment is gone.');
  expect(screen.getByLabelText('Reason')).not.toHaveAttribute('aria-invalid');
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send report' })));
  expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ kind: 'wall', id: 7, reason: 'Spam' });
});

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { DIAGNOSTIC } from '#shared/diagnostic';
import { fakeNetwork, json } from '#test/fake-network';
import { FootSpeedDiagnostic } from './diagnostic.tsx';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

/** through the choices (the first of each) and the tempo step to the last step's name and email */
async function toLastStep() {
  render(<FootSpeedDiagnostic />);
  const user = userEvent.setup();
  while (!screen.queryByRole('button', { name: 'See my result' })) {
    if (screen.queryByLabelText('Tempo (bpm)')) await user.click(screen.getByRole('button', { name: 'Next' }));
    else await user.click(within(screen.getByRole('list')).getAllByRole('button')[0]!);
  }
  return { user, form: screen.getByRole('button', { name: 'See my result' }).closest('form')! };
}

it('without a name or email: both are marked with their messages, the summary is said, focus goes to the name', async () => {
  const { user, form } = await toLastStep();
  await user.click(screen.getByRole('button', { name: 'See my result' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct these 2 fields: First name, Email.');
  const name = screen.getByLabelText('First name');
  const email = screen.getByLabelText('Email');
  for (const [field, message] of [
    [name, DIAGNOSTIC.nameRequired],
    [email, DIAGNOSTIC.emailRequired],
  ] as const) {
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)).toHaveTextContent(message);
  }
  await vi.waitFor(() => expect(document.activeElement).toBe(name));
  await user.type(name, 'Terry');
  expect(name).not.toHaveAttribute('aria-invalid');
  expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(fetchMock).not.toHaveBeenCalled();
});

it('an email the server refuses is marked under its field and focused', async () => {
  fetchMock.mockResolvedValueOnce(
    json(422, { message: 'x', errors: { email: ['The email must be a valid email address.'] } }),
  );
  const { user, form } = await toLastStep();
  await user.type(screen.getByLabelText('First name'), 'Terry');
  await user.type(screen.getByLabelText('Email'), 'terry@');
  await user.click(screen.getByRole('button', { name: 'See my result' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: Email.');
  const email = screen.getByLabelText('Email');
  expect(document.getElementById(email.getAttribute('aria-describedby')!)).toHaveTextContent(
    'The email must be a valid email address.',
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(email));
});

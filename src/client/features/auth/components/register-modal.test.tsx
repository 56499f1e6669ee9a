import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FIELD_MESSAGES, MESSAGES } from '#shared/constants';
import { openModal } from '#client/components/ui/modal.tsx';
import { navigate } from '../api/auth.ts';
import { RegisterModal } from './register-modal.tsx';

// Only the network (a third party to the component) is faked.
const fetchMock = vi.fn();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(navigate, 'to').mockImplementation(() => undefined);
  document.head.innerHTML = '<meta name="csrf-token" content="tok">';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(navigate.to).mockRestore();
  fetchMock.mockReset();
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function openAndSubmit(redirectTo?: string) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RegisterModal {...(redirectTo ? { redirectTo } : {})} />
    </QueryClientProvider>,
  );
  act(() => openModal('register'));
  const dialog = await screen.findByRole('dialog', { name: 'Create Your Account' });
  await user.type(screen.getByLabelText('Name'), 'Ann');
  await user.type(screen.getByLabelText('Email'), 'ann@x.test');
  await user.type(screen.getByLabelText('Confirm Email'), 'ann@x.test');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  return dialog;
}

it('shows each server error in red under its field and announces which fields to correct', async () => {
  fetchMock.mockResolvedValueOnce(
    json(422, { message: 'x', errors: { password: [FIELD_MESSAGES.passwordMin], email: [FIELD_MESSAGES.emailTaken] } }),
  );
  await openAndSubmit();
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct these 2 fields: Email, Password.');
  expect(screen.getByText(FIELD_MESSAGES.emailTaken)).toHaveClass('text-danger');
  const [, init] = fetchMock.mock.calls[0]!;
  expect(init.headers['X-CSRF-TOKEN']).toBe('tok');
  expect(JSON.parse(init.body)).toEqual({
    name: 'Ann',
    email: 'ann@x.test',
    email_confirmation: 'ann@x.test',
    password: 'secret-pass',
  });
});

it('falls back to the general message without an errors object', async () => {
  fetchMock.mockResolvedValueOnce(json(500, { message: 'boom' }));
  await openAndSubmit();
  expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.registrationFallback);
});

it('shows a spinner instead of the button while loading, then goes to the given location', async () => {
  let resolve!: (r: Response) => void;
  fetchMock.mockReturnValueOnce(new Promise<Response>((r) => (resolve = r)));
  await openAndSubmit('/order');
  expect(screen.getByRole('status', { name: 'Creating your account' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Create Account' })).toBeNull();
  await act(async () => resolve(json(200, { name: 'Ann', email: 'ann@x.test', redirect: '/order' })));
  expect(navigate.to).toHaveBeenCalledWith('/order');
});

it.each([
  ['an answer that would leave the site', undefined, '//evil.example/x'],
  ['a redirectTo that normalises off the site', '/.//evil.example/x', '/dashboard'],
  ['a redirectTo with a backslash', '/\\evil.example', '/dashboard'],
])('goes to the dashboard for %s', async (_label, redirectTo, answered) => {
  fetchMock.mockResolvedValueOnce(json(200, { name: 'Ann', email: 'ann@x.test', redirect: answered }));
  await openAndSubmit(redirectTo);
  await vi.waitFor(() => expect(navigate.to).toHaveBeenCalled());
  expect(navigate.to).toHaveBeenCalledWith('/dashboard');
});

it.each([
  ['the address it was given', '/mentorship/checkout', '/login?to=%2Fmentorship%2Fcheckout'],
  ['/order when it was given none', undefined, '/login?to=%2Forder'],
])('its "Sign in" link returns to %s', async (_label, redirectTo, href) => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RegisterModal {...(redirectTo ? { redirectTo } : {})} />
    </QueryClientProvider>,
  );
  act(() => openModal('register'));
  await screen.findByRole('dialog', { name: 'Create Your Account' });
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', href);
});

it('marks each wrong field with its own message next to it and moves focus to the first one', async () => {
  fetchMock.mockResolvedValueOnce(
    json(422, { message: 'x', errors: { password: [FIELD_MESSAGES.passwordMin], email: [FIELD_MESSAGES.emailTaken] } }),
  );
  await openAndSubmit();
  await screen.findByRole('alert');
  const email = screen.getByLabelText('Email');
  const password = screen.getByLabelText('Password');
  for (const [field, message] of [
    [email, FIELD_MESSAGES.emailTaken],
    [password, FIELD_MESSAGES.passwordMin],
  ] as const) {
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)).toHaveTextContent(message);
  }
  expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  await vi.waitFor(() => expect(document.activeElement).toBe(email));
  // an edited field is no longer marked wrong
  await userEvent.setup().type(email, 'x');
  expect(email).not.toHaveAttribute('aria-invalid');
  expect(password).toHaveAttribute('aria-invalid', 'true');
});

it('without field errors, focus goes back to "Create Account"', async () => {
  fetchMock.mockResolvedValueOnce(json(500, { message: 'boom' }));
  await openAndSubmit();
  await screen.findByRole('alert');
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create Account' })));
});

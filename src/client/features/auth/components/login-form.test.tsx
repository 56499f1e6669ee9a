import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { navigate } from '../api/auth.ts';
import { LoginForm } from './login-form.tsx';

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

async function signIn(to: string | null, answered: string) {
  fetchMock.mockResolvedValueOnce(json(200, { redirect: answered }));
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <LoginForm to={to} />
    </QueryClientProvider>,
  );
  await user.type(screen.getByLabelText('Email'), 'ann@x.test');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await vi.waitFor(() => expect(navigate.to).toHaveBeenCalled());
  return JSON.parse(fetchMock.mock.calls[0]![1].body) as Record<string, unknown>;
}

it('sends ?to= to the server and follows the answer on the site', async () => {
  const sent = await signIn('/lessons/1?x=1#c', '/lessons/1?x=1#c');
  expect(sent.to).toBe('/lessons/1?x=1#c');
  expect(navigate.to).toHaveBeenCalledWith('/lessons/1?x=1#c');
});

it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/x', 'javascript:alert(1)', '/\t/evil.example'])(
  'never follows an answer that leaves the site: %j',
  async (answered) => {
    await signIn('/.//evil.example/x', answered);
    expect(navigate.to).toHaveBeenCalledWith('/dashboard');
  },
);

it('marks the field the server names, announces it and moves focus there', async () => {
  fetchMock.mockResolvedValueOnce(json(422, { message: 'x', errors: { email: ['These details do not match.'] } }));
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <LoginForm to={null} />
    </QueryClientProvider>,
  );
  await user.type(screen.getByLabelText('Email'), 'ann@x.test');
  await user.type(screen.getByLabelText('Password'), 'wrong-pass');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Email.');
  const email = screen.getByLabelText('Email');
  expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(email.getAttribute('aria-describedby')!)).toHaveTextContent(
    'These details do not match.',
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(email));
  expect(navigate.to).not.toHaveBeenCalled();
});

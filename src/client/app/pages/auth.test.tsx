import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect, it, vi } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { createQueryClient } from '#client/lib/query-client.ts';
import { LoginPage, ResetPasswordPage } from './auth.tsx';
import { fakeNetwork, json } from '#test/fake-network';

// Only the network is faked: the page's reads and posts, answered as the server answers them.
const fetchMock = fakeNetwork();

function open(token = 'abc') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/password/reset/${token}`]}>
        <Routes>
          <Route path="/password/reset/:token" element={<ResetPasswordPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

it('asks whether the link works before showing the form', async () => {
  fetchMock.mockResolvedValueOnce(
    json(200, { valid: true, expires_at: new Date(Date.now() + 3_600_000).toISOString() }),
  );
  open('abc');
  expect(screen.getByRole('status', { name: 'Checking your reset link' })).toBeTruthy();
  expect(screen.queryByLabelText('New password')).toBeNull();
  await screen.findByLabelText('New password');
  expect(fetchMock.mock.calls[0]![0]).toBe('/api/password/reset/abc');
  expect(fetchMock.mock.calls[0]![1].method).toBe('GET');
});

it('a used or expired link (410): the sentence and the way to a new link, no form', async () => {
  fetchMock.mockResolvedValueOnce(json(410, { message: MESSAGES.passwordResetExpired }));
  open();
  expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.passwordResetExpired);
  expect(screen.getByRole('heading', { name: 'This reset link cannot be used' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Email me a new link' }).getAttribute('href')).toBe('/password/forgot');
  expect(screen.queryByLabelText('New password')).toBeNull();
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

it('when the check itself cannot answer (429), the form is shown and its submission decides', async () => {
  fetchMock.mockResolvedValueOnce(json(429, { message: MESSAGES.tooManyAttempts }));
  open();
  await screen.findByLabelText('New password');
});

it('a link that stops working while the form is open switches to the same explanation', async () => {
  fetchMock.mockResolvedValueOnce(
    json(200, { valid: true, expires_at: new Date(Date.now() + 3_600_000).toISOString() }),
  );
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), 'brand-new-pass');
  await user.type(screen.getByLabelText('Confirm new password'), 'brand-new-pass');
  fetchMock.mockResolvedValueOnce(
    json(422, { message: MESSAGES.passwordResetInvalid, errors: { token: [MESSAGES.passwordResetInvalid] } }),
  );
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
  expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.passwordResetInvalid);
  expect(screen.getByRole('link', { name: 'Email me a new link' })).toBeTruthy();
  expect(screen.queryByLabelText('New password')).toBeNull();
});

it('signing in from a link to one post lands on that post: the fragment the redirect kept goes back onto ?to=', async () => {
  fetchMock.mockResolvedValueOnce(json(200, { redirect: '/forums/topic/5#post-12' }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/login?to=%2Fforums%2Ftopic%2F5#post-12']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'ann@x.test');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
  const sent = JSON.parse(fetchMock.mock.calls[0]![1].body as string) as { to?: string };
  expect(sent.to).toBe('/forums/topic/5#post-12');
});

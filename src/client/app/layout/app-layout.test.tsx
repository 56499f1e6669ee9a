import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { pageConfig, setPageConfig } from '#client/lib/page-config.ts';
import { registerGuest } from '#client/features/checkout/api/checkout.ts';
import { AppLayout } from './app-layout.tsx';

afterEach(() => setPageConfig(null));

const frame = () =>
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/dashboard" element={<p>Dashboard</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );

it('a page answered 503 says so and does not offer a member to sign in (they are not signed out)', () => {
  setPageConfig({ error: { status: 503, message: 'Backbeat is briefly unavailable. Please try again in a moment.' } });
  frame();
  expect(screen.getByRole('heading', { name: 'Briefly unavailable' })).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  expect(screen.queryByText('Dashboard')).toBeNull();
});

it("a visitor's page offers to sign in", () => {
  setPageConfig({});
  frame();
  expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  expect(screen.getByText('Dashboard')).toBeInTheDocument();
});

it('answers a click on "Join" at once with the modal\'s frame, before its code has arrived', () => {
  setPageConfig({});
  frame();
  act(() => {
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
  });
  expect(screen.getByRole('status', { name: 'Opening Create Your Account' })).toBeInTheDocument();
});

describe('a guest who registers inside a checkout', () => {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  beforeEach(() => {
    document.head.innerHTML = '<meta name="csrf-token" content="tok">';
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url === '/register')
          return Promise.resolve(json({ name: 'Ann Drummer', email: 'ann@x.test', redirect: '/dashboard' }));
        if (url === '/api/me') {
          const user = {
            id: 7,
            name: 'Ann Drummer',
            email: 'ann@x.test',
            slug: 'ann-drummer',
            isAdmin: false,
            avatarUrl: '/a.png',
            profileUrl: '/profile/ann-drummer',
            entitlements: [],
          };
          return Promise.resolve(json({ user, csrfToken: 'tok2' }));
        }
        return Promise.resolve(json({}));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sees the header as a member at once: no "Sign in" or "Join" until the next page load', async () => {
    setPageConfig({});
    frame();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    await act(() =>
      registerGuest({
        name: 'Ann Drummer',
        email: 'ann@x.test',
        email_confirmation: 'ann@x.test',
        password: 'password123',
        checkout_slug: 'join',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    expect(pageConfig().authId).toBe(7);
  });
});

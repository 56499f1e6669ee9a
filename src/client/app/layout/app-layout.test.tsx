import { render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { setPageConfig } from '#client/lib/page-config.ts';
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

import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { fakeNetwork, json } from '#test/fake-network';
import { LiveShowsPage } from './live.tsx';

// Only the network (a third party to the page) is faked.
const fetchMock = fakeNetwork();

it("the server's answer marks the field, is said and moves focus even when the form's button had no focus", async () => {
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST'
      ? json(422, { message: 'x', errors: { title: ['A show with this title is already scheduled then.'] } })
      : json(200, { data: [], page: 1, pages: 1, total: 0 }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/admin/live']}>
        <LiveShowsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Schedule a show' }));
  const form = screen.getByRole('form', { name: 'Schedule a show' });
  const title = within(form).getByLabelText('Title');
  await user.type(title, 'Groove night');
  await user.type(within(form).getByLabelText('Starts at'), '2031-05-04T19:30');
  // a button that takes no focus when clicked (Safari), or one that lost it while busy
  (document.activeElement as HTMLElement).blur();
  fireEvent.submit(form);
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: Title.');
  expect(title).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(title.getAttribute('aria-describedby')!)).toHaveTextContent(
    'A show with this title is already scheduled then.',
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(title));
});

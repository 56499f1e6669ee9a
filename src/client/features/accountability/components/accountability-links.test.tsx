import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it, vi } from 'vitest';
import { ACCOUNTABILITY_MESSAGES } from '#shared/mentorship';
import { AccountabilityLinks } from './accountability-links.tsx';
import { fakeNetwork, json } from '#test/fake-network';

// Only the network (a third party to the component) is faked.
const fetchMock = fakeNetwork();

function renderLinks(postAnswer: () => Response) {
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? postAnswer() : json(200, { links: [] }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AccountabilityLinks studentId={4} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

it('without a link, marks it, announces it and moves focus there; nothing is sent', async () => {
  const user = renderLinks(() => json(201, {}));
  await user.click(screen.getByRole('button', { name: 'Add link' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Link.');
  const link = screen.getByLabelText('Link');
  expect(link).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(link.getAttribute('aria-describedby')!)).toHaveTextContent(
    ACCOUNTABILITY_MESSAGES.urlRequired,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(link));
  expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(false);
});

it('marks both fields the server refuses and focuses the first one shown', async () => {
  const user = renderLinks(() =>
    json(422, { message: 'x', errors: { label: ['Too long.'], url: [ACCOUNTABILITY_MESSAGES.urlInvalid] } }),
  );
  await user.type(screen.getByLabelText('Link'), 'youtube.com/watch?v=nope');
  await user.click(screen.getByRole('button', { name: 'Add link' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct these 2 fields: Link, Label.');
  const link = screen.getByLabelText('Link');
  const label = screen.getByLabelText('Label');
  expect(label).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(label.getAttribute('aria-describedby')!)).toHaveTextContent('Too long.');
  expect(document.getElementById(link.getAttribute('aria-describedby')!)).toHaveTextContent(
    ACCOUNTABILITY_MESSAGES.urlInvalid,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(link));
});

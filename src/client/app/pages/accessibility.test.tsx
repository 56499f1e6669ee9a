import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { expect, it, vi } from 'vitest';
import { BARRIER_MESSAGES } from '#shared/accessibility';
import { createQueryClient } from '#client/lib/query-client.ts';
import { fakeNetwork, json } from '#test/fake-network';
import { AccessibilityPage } from './accessibility.tsx';

// The barrier report form shows its errors the way every form does (components/ui/form-feedback.ts).
const fetchMock = fakeNetwork();

function open() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/accessibility']}>
        <AccessibilityPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), form: screen.getByRole('form', { name: 'Report a barrier' }) };
}

/** the texts of the elements a field is described by, in order */
const descriptions = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);

it('an empty description is marked and described before its hint, the summary is announced and focus moves there', async () => {
  const { user } = open();
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: What happened.');
  const description = screen.getByLabelText('What happened?');
  expect(description).toHaveAttribute('aria-invalid', 'true');
  expect(descriptions(description)[0]).toBe(BARRIER_MESSAGES.descriptionRequired);
  expect(descriptions(description)[1]).toMatch(/^What you were trying to do/);
  await vi.waitFor(() => expect(document.activeElement).toBe(description));
  expect(fetchMock).not.toHaveBeenCalled();
  // writing clears the mark; the hint stays
  await user.type(description, 'x');
  expect(description).not.toHaveAttribute('aria-invalid');
  expect(descriptions(description)).toEqual([expect.stringMatching(/^What you were trying to do/)]);
  // a failure about no field is the form's own announced line, and focus goes back to the button
  fetchMock.mockResolvedValueOnce(json(429, { message: 'Too many attempts. Please try again later.' }));
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send report' })));
});

it('the server’s refusal of the address goes under that field; once sent, the confirmation takes focus', async () => {
  const { user } = open();
  await user.type(screen.getByLabelText('What happened?'), 'The tempo is not read out.');
  const email = screen.getByLabelText(/Your email address/);
  await user.type(email, 'not-an-address');
  fetchMock.mockResolvedValueOnce(json(422, { message: 'x', errors: { email: [BARRIER_MESSAGES.emailInvalid] } }));
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Please correct this field: Your email address (optional).',
  );
  expect(email).toHaveAttribute('aria-invalid', 'true');
  expect(descriptions(email)[0]).toBe(BARRIER_MESSAGES.emailInvalid);
  await vi.waitFor(() => expect(document.activeElement).toBe(email));

  await user.clear(email);
  fetchMock.mockResolvedValueOnce(json(200, { message: BARRIER_MESSAGES.sent }));
  await user.click(screen.getByRole('button', { name: 'Send report' }));
  const done = await screen.findByText(BARRIER_MESSAGES.sent);
  await vi.waitFor(() => expect(document.activeElement).toBe(done.closest('[role="status"]')));
  expect(screen.queryByRole('alert')).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Report another barrier' }));
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Where did it happen?')));
  expect(screen.getByLabelText(/Your email address/)).not.toHaveAttribute('aria-invalid');
});

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, expect, it, vi } from 'vitest';
import { LIVE_MESSAGES } from '#shared/live';
import { setPageConfig } from '#client/lib/page-config.ts';
import { fakeNetwork, json } from '#test/fake-network';
import { ShowList } from './shows.tsx';

// Only the network (a third party to the component) is faked; the admin schedules shows on /live.
const fetchMock = fakeNetwork();
afterEach(() => setPageConfig({}));

async function openScheduleForm(answer: () => Response) {
  setPageConfig({ authId: 1, admin: true });
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? answer() : json(200, { live: [], upcoming: [], past: [] }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ShowList />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Schedule a show' }));
  return { user, form: screen.getByRole('form', { name: 'Schedule a show' }) };
}

it("the server's messages mark their fields, the summary is said and focus goes to the first wrong field", async () => {
  const { user, form } = await openScheduleForm(() =>
    json(422, {
      message: 'x',
      errors: { title: [LIVE_MESSAGES.titleRequired], starts_at: [LIVE_MESSAGES.startsAtInvalid] },
    }),
  );
  await user.click(within(form).getByRole('button', { name: 'Schedule' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct these 2 fields: Title, Starts at.');
  const title = within(form).getByLabelText('Title');
  const startsAt = within(form).getByLabelText('Starts at');
  for (const [field, message] of [
    [title, LIVE_MESSAGES.titleRequired],
    [startsAt, LIVE_MESSAGES.startsAtInvalid],
  ] as const) {
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)).toHaveTextContent(message);
  }
  await vi.waitFor(() => expect(document.activeElement).toBe(title));
  await user.type(title, 'Groove night');
  expect(title).not.toHaveAttribute('aria-invalid');
});

it('a description the server refuses is tied to the description field', async () => {
  const { user, form } = await openScheduleForm(() =>
    json(422, { message: 'x', errors: { description: [LIVE_MESSAGES.descriptionTooLong] } }),
  );
  await user.click(within(form).getByRole('button', { name: 'Schedule' }));
  const description = within(form).getByLabelText('Description');
  await vi.waitFor(() => expect(description).toHaveAttribute('aria-invalid', 'true'));
  expect(document.getElementById(description.getAttribute('aria-describedby')!)).toHaveTextContent(
    LIVE_MESSAGES.descriptionTooLong,
  );
  await vi.waitFor(() => expect(document.activeElement).toBe(description));
});

it('once scheduled, the form closes and focus goes back to the button that opened it', async () => {
  const { user, form } = await openScheduleForm(() =>
    json(201, {
      data: {
        id: 9,
        title: 'Groove night',
        description: '',
        starts_at: '2031-05-04T19:30:00.000Z',
        status: 'scheduled',
      },
    }),
  );
  await user.type(within(form).getByLabelText('Title'), 'Groove night');
  await user.click(within(form).getByRole('button', { name: 'Schedule' }));
  await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Schedule a show' })));
});

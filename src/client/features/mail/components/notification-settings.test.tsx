import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, it } from 'vitest';
import type { NotificationSettingsResponse } from '#shared/mail';
import { fakeNetwork, json } from '#test/fake-network';
import { NotificationSettings } from './notification-settings.tsx';

// The settings are saved through the network (a third party to the component), which is faked.
const fetchMock = fakeNetwork();

const settings: NotificationSettingsResponse = {
  settings: [
    {
      topic: 'digest',
      label: 'Weekly digest',
      description: 'Your practice week and the busiest topics.',
      essential: false,
      has_in_app: false,
      in_app: false,
      email: false,
    },
  ],
};

it('a box takes the click at once, before the save has answered, and goes back if the save is refused', async () => {
  fetchMock.mockResolvedValueOnce(json(200, settings));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <NotificationSettings />
    </QueryClientProvider>,
  );
  const box = within(await screen.findByRole('group', { name: 'Weekly digest' })).getByRole('checkbox', {
    name: 'By e-mail',
  });
  let refuse: (() => void) | undefined;
  fetchMock.mockImplementationOnce(
    () => new Promise<Response>((resolve) => (refuse = () => resolve(json(422, { message: 'No.' })))),
  );
  fetchMock.mockImplementation(async () => json(200, settings));
  // within the click's own event: a controlled box held only to the saved settings would spring back here
  fireEvent.click(box);
  expect((box as HTMLInputElement).checked).toBe(true);
  await expect.poll(() => refuse).toBeDefined();
  await act(async () => refuse!());
  await expect.poll(() => (box as HTMLInputElement).checked).toBe(false);
});

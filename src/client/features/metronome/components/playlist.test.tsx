import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PLAYLIST, START_UP } from '#shared/metronome';
import { openModal } from '#client/components/ui/modal.tsx';
import { setPageConfig } from '#client/lib/page-config.ts';
import { Playlist } from './playlist.tsx';

// A signed-in member's list goes through the network (a third party to the component), which is faked.
const fetchMock = vi.fn();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.innerHTML = '<meta name="csrf-token" content="tok">';
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  localStorage.clear();
  setPageConfig({});
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function openSave() {
  render(<Playlist current={START_UP} onLoad={() => undefined} />);
  act(() => openModal('metronome-save'));
  const dialog = await screen.findByRole('dialog', { name: 'Save settings' });
  return { user: userEvent.setup(), dialog };
}

it('without a name, marks the field, announces it and moves focus there', async () => {
  setPageConfig({});
  const { user } = await openSave();
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Name.');
  const name = screen.getByLabelText('Name');
  expect(name).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(name.getAttribute('aria-describedby')!)).toHaveTextContent(PLAYLIST.nameRequired);
  await vi.waitFor(() => expect(document.activeElement).toBe(name));
  await user.type(name, 'Warm-up');
  expect(name).not.toHaveAttribute('aria-invalid');
});

it("a member's name the server refuses is marked under the field", async () => {
  setPageConfig({ authId: 5 });
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? json(422, { message: 'x', errors: { name: ['That name is taken.'] } }) : json(200, []),
  );
  const { user } = await openSave();
  const name = screen.getByLabelText('Name');
  await user.type(name, 'Warm-up');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Name.');
  expect(document.getElementById(name.getAttribute('aria-describedby')!)).toHaveTextContent('That name is taken.');
  await vi.waitFor(() => expect(document.activeElement).toBe(name));
  expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(true);
});

/** the list with its one entry "Start Up" (a visitor's first list, or the member's from the server), renaming it */
async function startRename() {
  render(<Playlist current={START_UP} onLoad={() => undefined} />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Rename Start Up' }));
  const form = screen.getByRole('form', { name: 'Rename Start Up' });
  return { user, form, input: screen.getByLabelText('New name for Start Up') };
}

it('renaming to nothing: the name is marked with its message, the summary is said, focus is on it', async () => {
  setPageConfig({});
  const { user, form, input } = await startRename();
  await user.clear(input);
  await user.click(screen.getByRole('button', { name: 'Save name' }));
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: New name for Start Up.');
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(input.getAttribute('aria-describedby')!)).toHaveTextContent(PLAYLIST.nameRequired);
  await vi.waitFor(() => expect(document.activeElement).toBe(input));
  await user.type(input, 'W');
  expect(input).not.toHaveAttribute('aria-invalid');
});

it('a new name the server refuses stays in the form, marked, with focus on it', async () => {
  setPageConfig({ authId: 5 });
  fetchMock.mockImplementation(async (_url: string, init?: RequestInit) =>
    init?.method === 'PATCH'
      ? json(422, { message: 'x', errors: { name: ['That name is taken.'] } })
      : json(200, { data: [{ ...START_UP }] }),
  );
  const { user, form, input } = await startRename();
  await user.clear(input);
  await user.type(input, 'Warm-up{Enter}');
  expect(await within(form).findByRole('alert')).toHaveTextContent('Please correct this field: New name for Start Up.');
  expect(document.getElementById(input.getAttribute('aria-describedby')!)).toHaveTextContent('That name is taken.');
  await vi.waitFor(() => expect(document.activeElement).toBe(input));
  expect(input).toHaveValue('Warm-up');
});

it('a saved name closes the form, and focus goes back to the Rename button of the row', async () => {
  setPageConfig({});
  const { user, input } = await startRename();
  await user.clear(input);
  await user.type(input, 'Warm-up{Enter}');
  const button = await screen.findByRole('button', { name: 'Rename Warm-up' });
  await vi.waitFor(() => expect(document.activeElement).toBe(button));
});

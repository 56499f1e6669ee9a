import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { openModal } from '#client/components/ui/modal.tsx';
import { FriendButton } from './friend-button.tsx';
import { ProfileImageModal } from './profile-image-modal.tsx';
import { navigate } from '#client/lib/browser.ts';
import { fakeNetwork } from '#test/fake-network';

// only the network is faked
const fetchMock = fakeNetwork();
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

it('friend button: changes at once, and on failure keeps the new state and alerts', async () => {
  const alert = vi.fn();
  vi.stubGlobal('alert', alert);
  let resolve!: (r: Response) => void;
  fetchMock.mockReturnValueOnce(new Promise<Response>((r) => (resolve = r)));
  render(<FriendButton userId={7} initial="notfriends" relationshipId={null} />);
  await userEvent.setup().click(screen.getByRole('button', { name: 'Add Friend' }));
  // before the server answers
  expect(screen.getByRole('button', { name: 'Request Pending' })).toBeInTheDocument();
  await act(async () => resolve(json(500, { message: 'boom' })));
  expect(alert).toHaveBeenCalledWith(MESSAGES.requestFailed);
  expect(screen.getByRole('button', { name: 'Request Pending' })).toBeInTheDocument();
  expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ user_id: 7 });
});

it('friend button: unfriending posts _method delete; cancelling posts action 0', async () => {
  fetchMock.mockResolvedValue(json(200, { status: 'notfriends', relationship_id: null }));
  const user = userEvent.setup();
  const { unmount } = render(<FriendButton userId={7} initial="friends" relationshipId={3} />);
  await user.click(screen.getByRole('button', { name: 'Friends' }));
  expect(fetchMock.mock.calls[0]![0]).toBe('/friends');
  expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ user_id: 7, _method: 'delete' });
  unmount();
  render(<FriendButton userId={7} initial="pending" relationshipId={3} />);
  await user.click(screen.getByRole('button', { name: 'Request Pending' }));
  expect(fetchMock.mock.calls[1]![0]).toBe('/friends/3/request');
  expect(JSON.parse(fetchMock.mock.calls[1]![1].body)).toEqual({ action: 0 });
  expect(screen.getByRole('button', { name: 'Add Friend' })).toBeInTheDocument();
});

/** the file field is marked wrong, its message is under it, the summary is said and focus is on it */
async function expectFileError(message: string) {
  expect(await screen.findByRole('alert')).toHaveTextContent('Please correct this field: Choose an image.');
  const input = screen.getByLabelText('Choose an image');
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(document.getElementById(input.getAttribute('aria-describedby')!)).toHaveTextContent(message);
  await vi.waitFor(() => expect(document.activeElement).toBe(input));
}

it('profile image modal: a per-file error from the server shows as "Error: ..." under the field', async () => {
  fetchMock.mockResolvedValueOnce(json(422, { response: 'The file is corrupt.', message: 'The file is corrupt.' }));
  render(<ProfileImageModal reload={() => undefined} />);
  act(() => openModal('profile-image'));
  const input = await screen.findByLabelText('Choose an image');
  await userEvent.setup().upload(input, new File(['x'], 'me.png', { type: 'image/png' }));
  await expectFileError('Error: The file is corrupt.');
  const [url, init] = fetchMock.mock.calls[0]!;
  expect(url).toBe('/dashboard/upload-image');
  expect(init.headers['X-CSRF-TOKEN']).toBe('tok');
});

it('profile image modal: the wrong extension or over 3,000,000 bytes never reaches the server', async () => {
  render(<ProfileImageModal reload={() => undefined} />);
  act(() => openModal('profile-image'));
  const input = await screen.findByLabelText('Choose an image');
  const user = userEvent.setup({ applyAccept: false });
  await user.upload(input, new File(['x'], 'me.bmp', { type: 'image/bmp' }));
  await expectFileError('Only jpg, jpeg, png, and gif files are accepted.');
  await user.upload(input, new File([new Uint8Array(3_000_001)], 'big.JPG', { type: 'image/jpeg' }));
  await expectFileError('The file may not be greater than 3 MB.');
  expect(fetchMock).not.toHaveBeenCalled();
});

it('profile image modal: "Delete Current Image" asks first, and then clears and comes back to this page', async () => {
  const go = vi.spyOn(navigate, 'to').mockImplementation(() => undefined);
  window.history.replaceState(null, '', '/profile/ann-drummer?tab=wall');
  try {
    render(<ProfileImageModal reload={() => undefined} />);
    act(() => openModal('profile-image'));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Delete Current Image' }));
    const ask = await screen.findByRole('alertdialog');
    expect(go).not.toHaveBeenCalled();
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(go).not.toHaveBeenCalled();

    await user.click(screen.getByRole('link', { name: 'Delete Current Image' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete image' }));
    expect(go).toHaveBeenCalledTimes(1);
    const target = new URL(go.mock.calls[0]![0], 'http://x');
    expect(target.pathname).toBe('/dashboard/clear-image');
    expect(target.searchParams.get('to')).toBe('/profile/ann-drummer?tab=wall');
  } finally {
    go.mockRestore();
    window.history.replaceState(null, '', '/');
  }
});

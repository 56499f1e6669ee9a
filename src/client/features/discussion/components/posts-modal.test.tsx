import { act, render, screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { openPostsModal, PostsModal } from './posts-modal.tsx';

it('closes on Escape pressed inside its thread (the frame has focus), as on the page around it', async () => {
  render(<PostsModal />);
  act(() => openPostsModal('/posts/9?embed=1'));
  const dialog = await screen.findByRole('dialog', { name: 'Discussion' });
  const frame = within(dialog).getByTitle('Discussion') as HTMLIFrameElement;
  const inner = frame.contentWindow! as Window & typeof globalThis;
  act(() => {
    inner.document.dispatchEvent(new inner.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discussion' })).toBeNull());
});

it('refuses an address on another site', () => {
  render(<PostsModal />);
  act(() => openPostsModal('https://evil.example/x'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

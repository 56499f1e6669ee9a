import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { Dropdown, DropdownItem } from './dropdown.tsx';
import { closeModal, Modal, openModal } from './modal.tsx';

function setup() {
  render(
    <>
      <button type="button">outside</button>
      <Modal name="demo" title="Demo modal">
        <input aria-label="First" />
        <input aria-label="Second" />
      </Modal>
    </>,
  );
}

it('opens and closes by name through window events', async () => {
  setup();
  expect(screen.queryByRole('dialog')).toBeNull();
  act(() => openModal('demo'));
  expect(await screen.findByRole('dialog', { name: 'Demo modal' })).toBeInTheDocument();
  act(() => closeModal('demo'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('ignores events for other names', async () => {
  setup();
  act(() => openModal('other'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('closes on Escape and keeps focus inside while open', async () => {
  const user = userEvent.setup();
  setup();
  act(() => openModal('demo'));
  const dialog = await screen.findByRole('dialog');
  for (let i = 0; i < 5; i++) {
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
  }
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('closes on a click on the overlay', async () => {
  const user = userEvent.setup();
  setup();
  act(() => openModal('demo'));
  await screen.findByRole('dialog');
  await user.click(screen.getByTestId('modal-overlay-demo'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('gives focus back to the button that asked for it when it closes (it has no Radix trigger)', async () => {
  const user = userEvent.setup();
  render(
    <>
      <button type="button" onClick={() => openModal('demo')}>
        Open demo
      </button>
      <Modal name="demo" title="Demo modal">
        <input aria-label="First" />
      </Modal>
    </>,
  );
  const opener = screen.getByRole('button', { name: 'Open demo' });
  await user.click(opener);
  await screen.findByRole('dialog');
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  await waitFor(() => expect(document.activeElement).toBe(opener));
});

it("opened from a menu item, gives focus back to the menu's button (the item left with its menu)", async () => {
  const user = userEvent.setup();
  render(
    <>
      <Dropdown label="Templates" trigger="Templates">
        <DropdownItem onSelect={() => openModal('demo')}>Save as template</DropdownItem>
      </Dropdown>
      <Modal name="demo" title="Demo modal">
        <input aria-label="First" />
      </Modal>
    </>,
  );
  const menuButton = screen.getByRole('button', { name: 'Templates' });
  menuButton.focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('menuitem', { name: 'Save as template' }));
  await screen.findByRole('dialog');
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  await waitFor(() => expect(document.activeElement).toBe(menuButton));
});

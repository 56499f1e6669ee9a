import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { toast, Toaster } from './toast.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it('closes by itself after 10 s and is removed 1 s later', () => {
  render(<Toaster />);
  act(() => void toast('Saved to My Practice!', 'success'));
  const el = screen.getByRole('status');
  expect(el).toHaveTextContent('Saved to My Practice!');
  expect(el).toHaveAttribute('data-toast-type', 'success');
  act(() => vi.advanceTimersByTime(9_999));
  expect(el).toHaveAttribute('data-state', 'open');
  act(() => vi.advanceTimersByTime(1));
  expect(el).toHaveAttribute('data-state', 'closed');
  act(() => vi.advanceTimersByTime(999));
  expect(screen.queryByRole('status')).not.toBeNull();
  act(() => vi.advanceTimersByTime(1));
  expect(screen.queryByRole('status')).toBeNull();
});

it('closes on a click; a page-wide "toast" event raises one', () => {
  render(<Toaster />);
  act(() => void window.dispatchEvent(new CustomEvent('toast', { detail: { message: 'Careful', type: 'danger' } })));
  const el = screen.getByRole('status');
  expect(el).toHaveAttribute('data-toast-type', 'danger');
  // the status holds the button that closes it, named for what it does
  fireEvent.click(within(el).getByRole('button', { name: 'Dismiss notification' }));
  expect(el).toHaveAttribute('data-state', 'closed');
  act(() => vi.advanceTimersByTime(1_000));
  expect(screen.queryByRole('status')).toBeNull();
});

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

export { openModal, closeModal } from './modal-events.ts';

interface ModalProps {
  name: string;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  onOpenChange?: (open: boolean) => void;
}

// Radix Dialog is no part of a page's initial JavaScript: it loads when a modal first opens (issue 9)
const ModalDialog = lazy(() => import('./modal-dialog.tsx').then((m) => ({ default: m.ModalDialog })));

/**
 * The generic modal: opened and closed by name through window events, closed by Escape, a click on
 * the overlay or the close button; focus stays inside while it is open and returns afterwards.
 * Its content (children) is mounted only while it is open.
 */
export function Modal({ name, onOpenChange, ...dialog }: ModalProps) {
  const [open, setOpen] = useState(false);
  // once opened, the dialog stays mounted: closing it is Radix's (focus returns to where it was)
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  useEffect(() => {
    const show = () => setOpen(true);
    const hide = () => setOpen(false);
    window.addEventListener(`open-${name}`, show);
    window.addEventListener(`close-${name}`, hide);
    return () => {
      window.removeEventListener(`open-${name}`, show);
      window.removeEventListener(`close-${name}`, hide);
    };
  }, [name]);
  useEffect(() => onOpenChange?.(open), [open, onOpenChange]);

  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog name={name} {...dialog} open={open} setOpen={setOpen} />
    </Suspense>
  );
}

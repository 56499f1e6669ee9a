import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { focusedElement } from './return-focus.ts';

export { openModal, closeModal } from './modal-events.ts';

interface ModalProps {
  name: string;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  onOpenChange?: (open: boolean) => void;
}

// Radix Dialog is no part of a page's initial JavaScript: it loads when a modal first opens (scripts/initial-js.ts)
const ModalDialog = lazy(() => import('./modal-dialog.tsx').then((m) => ({ default: m.ModalDialog })));

/**
 * The generic modal: opened and closed by name through window events, closed by Escape, a click on
 * the overlay or the close button; focus stays inside while it is open and returns afterwards.
 * Its content (children) is mounted only while it is open.
 */
export function Modal({ name, onOpenChange, ...dialog }: ModalProps) {
  const [open, setOpen] = useState(false);
  // once opened, the dialog stays mounted
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  // what had focus when the modal was asked for: it has no Radix trigger to return focus to
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const show = () => {
      opener.current = focusedElement();
      setOpen(true);
    };
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
      <ModalDialog name={name} {...dialog} open={open} setOpen={setOpen} opener={opener} />
    </Suspense>
  );
}

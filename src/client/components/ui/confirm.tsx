import { lazy, Suspense, useCallback, useRef, useState, type ReactNode } from 'react';
import { focusedElement } from './return-focus.ts';

// Radix AlertDialog is no part of a page's initial JavaScript: it loads on the first confirm (scripts/initial-js.ts)
const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

interface Pending {
  message: string;
  confirmLabel: string;
  danger: boolean;
  resolve: (ok: boolean) => void;
}

/**
 * A confirmation in our own modal (focus held inside, Escape cancels), instead of window.confirm:
 * `const [confirm, dialog] = useConfirm(); if (await confirm(text, {...})) ...` and render {dialog}.
 */
export function useConfirm(): [
  (message: string, opts?: { confirmLabel?: string; danger?: boolean }) => Promise<boolean>,
  ReactNode,
] {
  const [pending, setPending] = useState<Pending | null>(null);
  // once asked, the dialog stays mounted
  const [used, setUsed] = useState(false);
  if (pending && !used) setUsed(true);
  // what had focus when the question was asked (the button that asked): focus returns there
  const opener = useRef<HTMLElement | null>(null);
  const confirm = useCallback((message: string, opts: { confirmLabel?: string; danger?: boolean } = {}) => {
    opener.current = focusedElement();
    return new Promise<boolean>((resolve) =>
      setPending({ message, confirmLabel: opts.confirmLabel ?? 'Yes', danger: opts.danger ?? false, resolve }),
    );
  }, []);
  const close = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const dialog = used ? (
    <Suspense fallback={null}>
      <ConfirmDialog pending={pending} close={close} opener={opener} />
    </Suspense>
  ) : null;
  return [confirm, dialog];
}

import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';

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
export function useConfirm(): [(message: string, opts?: { confirmLabel?: string; danger?: boolean }) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  // once asked, the dialog stays mounted: closing it is Radix's (focus returns to where it was)
  const [used, setUsed] = useState(false);
  if (pending && !used) setUsed(true);
  const confirm = useCallback(
    (message: string, opts: { confirmLabel?: string; danger?: boolean } = {}) =>
      new Promise<boolean>((resolve) => setPending({ message, confirmLabel: opts.confirmLabel ?? 'Yes', danger: opts.danger ?? false, resolve })),
    [],
  );
  const close = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const dialog = used ? (
    <Suspense fallback={null}>
      <ConfirmDialog pending={pending} close={close} />
    </Suspense>
  ) : null;
  return [confirm, dialog];
}

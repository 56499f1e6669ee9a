import { useCallback, useState, type ReactNode } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import clsx from 'clsx';
import { buttonClass } from './button.tsx';

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
  const confirm = useCallback(
    (message: string, opts: { confirmLabel?: string; danger?: boolean } = {}) =>
      new Promise<boolean>((resolve) => setPending({ message, confirmLabel: opts.confirmLabel ?? 'Yes', danger: opts.danger ?? false, resolve })),
    [],
  );
  const close = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const dialog = (
    <AlertDialog.Root open={pending !== null} onOpenChange={(open) => !open && close(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[950] bg-black/55 backdrop-blur-[2px]" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-[951] w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl">
          <AlertDialog.Title className="text-xl font-bold tracking-tight">Please confirm</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-base text-fg">{pending?.message}</AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className={buttonClass('secondary')}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action className={clsx(buttonClass(pending?.danger ? 'danger' : 'primary'))} onClick={() => close(true)}>
              {pending?.confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
  return [confirm, dialog];
}

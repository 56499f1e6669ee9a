import * as AlertDialog from '@radix-ui/react-alert-dialog';
import clsx from 'clsx';
import { buttonClass } from './button.tsx';
import { keepOpener, returnFocus } from './return-focus.ts';

/** The dialog of useConfirm (confirm.tsx), its own chunk: Radix AlertDialog loads on the first confirm. */
export function ConfirmDialog({
  pending,
  close,
  opener,
}: {
  pending: { message: string; confirmLabel: string; danger: boolean } | null;
  close: (ok: boolean) => void;
  opener: { current: HTMLElement | null };
}) {
  return (
    <AlertDialog.Root open={pending !== null} onOpenChange={(open) => !open && close(false)}>
      {pending !== null ? (
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-[950] bg-black/55 backdrop-blur-[2px]" />
          <AlertDialog.Content
            onOpenAutoFocus={() => keepOpener(opener)}
            onCloseAutoFocus={(event) => returnFocus(event, opener.current)}
            className="fixed left-1/2 top-1/2 z-[951] w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl"
          >
            <AlertDialog.Title className="text-xl font-bold tracking-tight">Please confirm</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-base text-fg">{pending?.message}</AlertDialog.Description>
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <AlertDialog.Cancel className={buttonClass('secondary')}>Cancel</AlertDialog.Cancel>
              <AlertDialog.Action
                className={clsx(buttonClass(pending?.danger ? 'danger' : 'primary'))}
                onClick={() => close(true)}
              >
                {pending?.confirmLabel}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      ) : null}
    </AlertDialog.Root>
  );
}

import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import clsx from 'clsx';
import { keepOpener, returnFocus } from './return-focus.ts';

export interface ModalDialogProps {
  name: string;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  open: boolean;
  setOpen: (open: boolean) => void;
  /** the element focus returns to when the dialog closes */
  opener: { current: HTMLElement | null };
}

/** The dialog of a Modal (modal.tsx), its own chunk: Radix Dialog loads when a modal first opens. */
export function ModalDialog({
  name,
  title,
  description,
  children,
  size = 'md',
  open,
  setOpen,
  opener,
}: ModalDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      {open ? (
        <Dialog.Portal>
          <Dialog.Overlay
            data-testid={`modal-overlay-${name}`}
            className="fixed inset-0 z-[900] bg-black/55 backdrop-blur-[2px]"
          />
          <Dialog.Content
            onOpenAutoFocus={() => keepOpener(opener)}
            onCloseAutoFocus={(event) => returnFocus(event, opener.current)}
            className={clsx(
              'fixed left-1/2 top-1/2 z-[901] max-h-[92vh] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto',
              'rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl sm:p-8',
              size === 'sm' && 'max-w-sm',
              size === 'md' && 'max-w-md',
              size === 'lg' && 'max-w-2xl',
            )}
          >
            <div className="mb-5 flex items-start justify-between gap-4">
              <div>
                <Dialog.Title className="text-2xl font-bold tracking-tight">{title}</Dialog.Title>
                {description ? (
                  <Dialog.Description className="mt-1 text-muted">{description}</Dialog.Description>
                ) : (
                  <Dialog.Description className="sr-only">{title}</Dialog.Description>
                )}
              </div>
              <Dialog.Close
                aria-label="Close"
                className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
              >
                <X aria-hidden className="size-5" />
              </Dialog.Close>
            </div>
            {children}
          </Dialog.Content>
        </Dialog.Portal>
      ) : null}
    </Dialog.Root>
  );
}

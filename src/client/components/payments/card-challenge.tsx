import * as Dialog from '@radix-ui/react-dialog';
import { ShieldCheck } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';

/**
 * The sandbox's "3-D Secure" dialog (card-form.tsx). Its own chunk: Radix Dialog loads when a card
 * asks for authentication, not with the checkout page (a public page's initial JavaScript: scripts/initial-js.ts).
 * It opens while the form is busy (its submit button disabled), so there is no opener to return to: the
 * outcome decides where focus goes (the card's error on the card's fields, or the next page), and Radix
 * is kept from sending it to <body> meanwhile.
 */
export function CardChallenge({
  busy,
  authenticate,
}: {
  busy: boolean;
  authenticate: (outcome: 'complete' | 'fail') => void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => (!open ? authenticate('fail') : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[950] bg-black/55" />
        <Dialog.Content
          onCloseAutoFocus={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[951] w-[calc(100vw-1.5rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-6 text-fg shadow-2xl"
        >
          <div className="mb-4 flex items-center gap-3">
            <ShieldCheck aria-hidden className="size-8 text-accent" />
            <Dialog.Title className="text-xl font-bold">Sandbox 3-D Secure</Dialog.Title>
          </div>
          <Dialog.Description className="mb-5 text-muted">
            Your bank asks you to confirm this card. In the sandbox you choose what the bank answers.
          </Dialog.Description>
          <div className="flex flex-col gap-3">
            <Button full disabled={busy} onClick={() => authenticate('complete')}>
              Complete authentication
            </Button>
            <Button full variant="secondary" disabled={busy} onClick={() => authenticate('fail')}>
              Fail authentication
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

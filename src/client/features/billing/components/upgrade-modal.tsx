import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BillingSubscription } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { closeModal, Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { BILLING_KEY, newIdempotencyKey, upgradeCall, type UpgradeCall } from '../api/billing.ts';
import { Option, StepFooter, ThanksStep } from './steps.tsx';
import { formatMoney } from '#shared/money';

export const UPGRADE_MODAL = 'billing-upgrade';

/** What the Upgrade modal can offer: yearly for a live card subscription on the monthly plan, lifetime for a card subscription with nothing due. */
export function upgradeChoices(sub: BillingSubscription): UpgradeCall[] {
  // a payment is due: it is settled first (the past-due section), never an upgrade on the card that failed
  if (sub.provider !== 'card' || sub.cancelAtPeriodEnd || sub.status === 'canceled' || sub.status === 'past_due')
    return [];
  const choices: UpgradeCall[] = [];
  if (sub.plan === 'monthly' && sub.status !== 'paused') choices.push('upgrade-yearly');
  choices.push('upgrade-lifetime');
  return choices;
}

/**
 * The standalone Upgrade modal on /account/billing: the yearly plan or lifetime at the
 * checkout's full prices (the retention offers live in the cancel modal). The server decides the
 * price; one idempotency key per opening, so a double click is one charge.
 */
export function UpgradeModal({ sub }: { sub: BillingSubscription }) {
  const qc = useQueryClient();
  const choices = upgradeChoices(sub);
  const [choice, setChoice] = useState<UpgradeCall | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);

  const onOpenChange = useCallback((open: boolean) => {
    if (!open) return;
    setChoice(null);
    setError(null);
    setDone(null);
    setBusy(false);
    setKey(newIdempotencyKey());
  }, []);

  async function confirm() {
    if (busy) return;
    if (!choice) return setError('Please choose an upgrade.');
    setBusy(true);
    setError(null);
    try {
      const res = await upgradeCall(choice, `${key}:${choice}`);
      setDone(res.message);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      setError(errorMessage(err, ['payment', 'subscription']));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal name={UPGRADE_MODAL} title="Upgrade your membership" onOpenChange={onOpenChange}>
      {done ? (
        <ThanksStep message={done} onClose={() => closeModal(UPGRADE_MODAL)} />
      ) : (
        <form
          data-testid="upgrade-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
        >
          <fieldset disabled={busy}>
            <legend className="mb-3 text-lg font-semibold">Choose your new plan</legend>
            <div className="flex flex-col gap-2">
              {choices.includes('upgrade-yearly') ? (
                <Option
                  type="radio"
                  name="upgrade"
                  testId="upgrade-yearly"
                  checked={choice === 'upgrade-yearly'}
                  onChange={() => setChoice('upgrade-yearly')}
                  title={`Yearly: ${formatMoney(sub.yearlyFullPrice)} a year`}
                  detail="Switch now; the first year is charged to your saved card today."
                />
              ) : null}
              {choices.includes('upgrade-lifetime') ? (
                <Option
                  type="radio"
                  name="upgrade"
                  testId="upgrade-lifetime"
                  checked={choice === 'upgrade-lifetime'}
                  onChange={() => setChoice('upgrade-lifetime')}
                  title={`Lifetime: ${formatMoney(sub.lifetimeFullPrice)} once`}
                  detail="Paid once on your saved card; your subscription ends and you are never billed again."
                />
              ) : null}
            </div>
          </fieldset>
          <StepFooter error={error} back="Not now" onBack={() => closeModal(UPGRADE_MODAL)}>
            <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
              <span className="inline-flex items-center gap-2">
                {busy ? <Spinner label="Upgrading" className="[&_svg]:size-5 [&_svg]:text-current" /> : null}
                {busy ? 'Upgrading…' : 'Confirm upgrade'}
              </span>
            </Button>
          </StepFooter>
        </form>
      )}
    </Modal>
  );
}

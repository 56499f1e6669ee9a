import { useCallback, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BillingSubscription } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { closeModal, Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { BILLING_KEY, newIdempotencyKey, upgradeCall, type UpgradeCall } from '../api/billing.ts';
import { Option, StepFooter, ThanksStep } from './steps.tsx';
import { formatMoney } from '#shared/money';

export const UPGRADE_MODAL = 'billing-upgrade';
const UPGRADE_CHOICE_REQUIRED = 'Please choose an upgrade.';

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
 * price; one idempotency key per opening, so a double click is one charge. What is wrong is shown as
 * every form shows it (components/ui/form-feedback.ts): a missing choice under the choices, a refused
 * charge as the form's own message.
 */
export function UpgradeModal({ sub }: { sub: BillingSubscription }) {
  const qc = useQueryClient();
  const choices = upgradeChoices(sub);
  const [choice, setChoice] = useState<UpgradeCall | null>(null);
  const feedback = useFormFeedback();
  const { clear } = feedback;
  const choiceErrorId = useId();
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);

  const onOpenChange = useCallback(
    (open: boolean) => {
      if (!open) return;
      setChoice(null);
      clear();
      setDone(null);
      setBusy(false);
      setKey(newIdempotencyKey());
    },
    [clear],
  );

  const choose = (c: UpgradeCall) => {
    setChoice(c);
    feedback.edited('choice');
  };

  async function confirm() {
    if (busy) return;
    if (!choice) return feedback.show({ choice: UPGRADE_CHOICE_REQUIRED }, null);
    setBusy(true);
    feedback.clear();
    try {
      const res = await upgradeCall(choice, `${key}:${choice}`);
      setDone(res.message);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      feedback.show({}, errorMessage(err, ['payment', 'subscription']));
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
          ref={feedback.formRef}
          data-testid="upgrade-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
        >
          <fieldset disabled={busy} {...invalidProps(feedback.errors.choice, choiceErrorId)}>
            <legend className="mb-3 text-lg font-semibold">Choose your new plan</legend>
            <div className="flex flex-col gap-2">
              {choices.includes('upgrade-yearly') ? (
                <Option
                  type="radio"
                  name="upgrade"
                  testId="upgrade-yearly"
                  checked={choice === 'upgrade-yearly'}
                  onChange={() => choose('upgrade-yearly')}
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
                  onChange={() => choose('upgrade-lifetime')}
                  title={`Lifetime: ${formatMoney(sub.lifetimeFullPrice)} once`}
                  detail="Paid once on your saved card; your subscription ends and you are never billed again."
                />
              ) : null}
            </div>
            <FieldMessage id={choiceErrorId} message={feedback.errors.choice} />
          </fieldset>
          <StepFooter error={feedback.summary} back="Not now" onBack={() => closeModal(UPGRADE_MODAL)}>
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

import { useCallback, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { COMMERCE_MESSAGES } from '#shared/commerce';
import { discountOfferText, longDate, type BillingSubscription } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { closeModal, Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FieldMessage } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { BILLING_KEY, cardCall, type CardCall } from '../api/billing.ts';
import { OpeningSteps, Option, StepFooter, StepLabel, useCancelFlow } from './steps.tsx';
import { formatMoney } from '#shared/money';

export const CARD_CANCEL_MODAL = 'card-cancel';
type Choice = 'discount' | 'upgrade-yearly' | 'upgrade-lifetime' | 'cancel';

/**
 * Card-provider cancel modal (docs/product/retention.md): 0 stay/thanks, 1 loss warning, 2 reason, 3 alternatives
 * (discount, upgrade to yearly, lifetime, cancel), 4 pause offer, 5 final confirmation. From step 3
 * the offers submit at once; cancel goes to 5 when the cycle is yearly or skipPause, else to 4.
 * Step 3 shows what is wrong as every form does (components/ui/form-feedback.ts): a missing choice under
 * the choices. Opening the modal resets everything.
 */
export function CardCancelModal({ sub }: { sub: BillingSubscription }) {
  const qc = useQueryClient();
  const flow = useCancelFlow();
  const { step, setStep, go, fields, error, setError, busy, setBusy, key, reset } = flow;
  const [choice, setChoice] = useState<Choice | null>(null);
  const [pause, setPause] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const alternatives = useFormFeedback();
  const { clear: clearAlternatives } = alternatives;
  const choiceErrorId = useId();

  const onOpenChange = useCallback(
    (open: boolean) => {
      if (!open) return;
      reset();
      setChoice(null);
      setPause(false);
      setDone(null);
      clearAlternatives();
    },
    [reset, clearAlternatives],
  );

  async function submit(call: CardCall) {
    if (busy) return;
    setBusy(true);
    setError(null);
    alternatives.clear();
    try {
      const res = await cardCall(call, fields, `${key}:${call}`);
      setDone(res.message);
      setStep(0);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      const message = errorMessage(err, ['reason', 'reason_description', 'payment', 'subscription']);
      // step 3's offers answer in its own form's line; the later steps in the footer
      if (step === 3) alternatives.show({}, message);
      else setError(message);
    } finally {
      setBusy(false);
    }
  }

  const choose = (c: Choice) => {
    setChoice(c);
    alternatives.edited('choice');
  };

  function afterAlternatives() {
    if (!choice) return alternatives.show({ choice: COMMERCE_MESSAGES.choiceRequired }, null);
    if (choice !== 'cancel') return void submit(choice);
    alternatives.clear();
    go(sub.cycle === 'year' || sub.skipPause ? 5 : 4);
  }

  const endDate = longDate(sub.nextBillingDate);
  // the offers as admins set them (GET /api/billing carries them; commerce.ts's RETENTION by default)
  const offers = sub.offers;
  const discountTitle =
    sub.cycle === 'month'
      ? `${offers.monthlyDiscountPercent}% off for ${offers.monthlyDiscountCycles === 1 ? '1 month' : `${offers.monthlyDiscountCycles} months`}`
      : `${formatMoney(offers.yearlyDiscountCents)} off your next year`;

  return (
    <Modal
      name={CARD_CANCEL_MODAL}
      title={sub.skipPause ? 'Cancel membership' : 'Cancel or pause membership'}
      size="lg"
      onOpenChange={onOpenChange}
    >
      <OpeningSteps flow={flow} endDate={endDate} done={done} onClose={() => closeModal(CARD_CANCEL_MODAL)} />
      {step === 3 ? (
        <form
          ref={alternatives.formRef}
          data-testid="cancel-step-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            afterAlternatives();
          }}
        >
          <StepLabel step={3} />
          <fieldset {...invalidProps(alternatives.errors.choice, choiceErrorId)}>
            <legend className="mb-3 text-lg font-semibold">Before you cancel, would one of these help?</legend>
            <div className="flex flex-col gap-2">
              {sub.canUseDiscount ? (
                <Option
                  type="radio"
                  name="choice"
                  testId="choice-discount"
                  checked={choice === 'discount'}
                  onChange={() => choose('discount')}
                  title={`Stay for less: ${discountTitle}`}
                  detail={`${discountOfferText(sub.cycle, offers)[0]!.toUpperCase()}${discountOfferText(sub.cycle, offers).slice(1)}. Offered once.`}
                />
              ) : null}
              {sub.cycle === 'month' ? (
                <Option
                  type="radio"
                  name="choice"
                  testId="choice-upgrade-yearly"
                  checked={choice === 'upgrade-yearly'}
                  onChange={() => choose('upgrade-yearly')}
                  title={`Switch to yearly and save ${formatMoney(sub.yearlyPrice - sub.yearlyOfferPrice)}`}
                  detail={`${formatMoney(sub.yearlyOfferPrice)} for your first year (instead of ${formatMoney(sub.yearlyPrice)}).`}
                />
              ) : null}
              <Option
                type="radio"
                name="choice"
                testId="choice-upgrade-lifetime"
                checked={choice === 'upgrade-lifetime'}
                onChange={() => choose('upgrade-lifetime')}
                title={`Go lifetime: ${offers.lifetimeDiscountPercent}% off`}
                detail={`Pay ${formatMoney(sub.lifetimeOfferPrice)} once (instead of ${formatMoney(sub.lifetimePrice)}) on your saved card and never be billed again.`}
              />
              <Option
                type="radio"
                name="choice"
                testId="choice-cancel"
                checked={choice === 'cancel'}
                onChange={() => choose('cancel')}
                title="No thanks, I still want to cancel"
              />
            </div>
            <FieldMessage id={choiceErrorId} message={alternatives.errors.choice} />
          </fieldset>
          <StepFooter
            error={alternatives.summary}
            onBack={() => {
              alternatives.clear();
              go(2);
            }}
          >
            <Button type="submit" disabled={busy}>
              {busy ? 'Working…' : 'Continue'}
            </Button>
          </StepFooter>
        </form>
      ) : null}
      {step === 4 ? (
        <form
          data-testid="cancel-step-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (pause) void submit('pause');
            else go(5);
          }}
        >
          <StepLabel step={4} />
          <p className="mb-3 text-lg font-semibold">Need a break instead? Pause your membership and keep your place.</p>
          <Option
            type="checkbox"
            name="pause"
            testId="pause-offer"
            checked={pause}
            onChange={setPause}
            title={`Pause for ${formatMoney(offers.cardPauseFeeCents)} a month`}
            detail="Your lessons lock while paused; resume any time from this page and carry on where you left off."
          />
          <StepFooter error={error} onBack={() => go(3)}>
            <Button type="submit" disabled={busy}>
              {busy ? 'Working…' : 'Continue'}
            </Button>
          </StepFooter>
        </form>
      ) : null}
      {step === 5 ? (
        <div data-testid="cancel-step-5">
          <StepLabel step={5} />
          <p className="text-lg font-semibold">Cancel your membership?</p>
          <p className="mt-2 text-muted">You will not be charged again. You keep full access until {endDate}.</p>
          <StepFooter error={error} back="Keep my membership" onBack={() => go(0)}>
            <Button variant="danger" disabled={busy} onClick={() => void submit('cancel')}>
              {busy ? 'Cancelling…' : 'Cancel membership'}
            </Button>
          </StepFooter>
        </div>
      ) : null}
    </Modal>
  );
}

import { useCallback, useState } from 'react';
import { longDate, type BillingSubscription } from '#shared/billing';
import { errorMessage } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { closeModal, Modal } from '#client/components/ui/modal.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { paypalCall } from '../api/billing.ts';
import { OpeningSteps, Option, StepFooter, StepLabel, useCancelFlow } from './steps.tsx';
import { formatMoney } from '#shared/money';

export const PAYPAL_CANCEL_MODAL = 'paypal-cancel';

/**
 * PayPal cancel modal (docs/product/retention.md): 1 loss warning, 2 reason, 3 a discounted lifetime (a tick box;
 * its checkout is a form post to PayPal), 4 the free pause offer, 5 the pause or cancel confirmation
 * (with a link to switch to pause). The page reloads after suspend or cancel.
 */
export function PaypalCancelModal({
  sub,
  reload = () => window.location.reload(),
}: {
  sub: BillingSubscription;
  reload?: () => void;
}) {
  const flow = useCancelFlow();
  const { step, go, fields, error, setError, busy, setBusy, key, reset } = flow;
  const [lifetime, setLifetime] = useState(false);
  const [pause, setPause] = useState(false);

  const onOpenChange = useCallback(
    (open: boolean) => {
      if (!open) return;
      reset();
      setLifetime(false);
      setPause(false);
    },
    [reset],
  );

  async function confirm() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await paypalCall(pause ? 'suspend' : 'cancel', fields, `${key}:${pause ? 'suspend' : 'cancel'}`);
      reload();
    } catch (err) {
      setError(errorMessage(err, ['reason', 'reason_description', 'payment', 'subscription']));
      setBusy(false);
    }
  }

  const endDate = longDate(sub.nextBillingDate);
  return (
    <Modal
      name={PAYPAL_CANCEL_MODAL}
      title={sub.skipPause ? 'Cancel membership' : 'Cancel or pause membership'}
      size="lg"
      onOpenChange={onOpenChange}
    >
      <OpeningSteps flow={flow} endDate={endDate} done={null} onClose={() => closeModal(PAYPAL_CANCEL_MODAL)} />
      {step === 3 ? (
        // a plain form post (discount=1, reason, reason_description, _token) that goes on to PayPal
        <form
          data-testid="cancel-step-3"
          method="post"
          action="/account/billing/paypal/lifetime-checkout"
          onSubmit={(e) => {
            if (!lifetime) {
              e.preventDefault();
              // the one pause was used: no pause offer
              go(sub.skipPause ? 5 : 4);
            } else setBusy(true);
          }}
        >
          <input type="hidden" name="_token" value={pageConfig().csrfToken} />
          <input type="hidden" name="discount" value="1" />
          <input type="hidden" name="reason" value={fields.reason} />
          <input type="hidden" name="reason_description" value={fields.reason_description} />
          <input type="hidden" name="idempotency_key" value={`${key}:lifetime`} />
          <StepLabel step={3} />
          <p className="mb-3 text-lg font-semibold">
            Never pay monthly again: go lifetime for {sub.offers.lifetimeDiscountPercent}% off.
          </p>
          <Option
            type="checkbox"
            name="lifetime"
            testId="lifetime-offer"
            checked={lifetime}
            onChange={setLifetime}
            title={`Yes, upgrade me to lifetime for ${formatMoney(sub.lifetimeOfferPrice)}`}
            detail={`One PayPal payment instead of ${formatMoney(sub.lifetimePrice)}; your subscription stops and you are never billed again.`}
          />
          <StepFooter onBack={() => go(2)}>
            <Button type="submit" disabled={busy}>
              {lifetime ? (busy ? 'Going to PayPal…' : 'Check out with PayPal') : 'Continue'}
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
            go(5);
          }}
        >
          <StepLabel step={4} />
          <p className="mb-3 text-lg font-semibold">Need a break instead? Pausing is free.</p>
          <Option
            type="checkbox"
            name="pause"
            testId="pause-offer"
            checked={pause}
            onChange={setPause}
            title="Pause my membership for free"
            detail="Your lessons lock while paused; resume any time from this page."
          />
          <StepFooter onBack={() => go(3)}>
            <Button type="submit">Continue</Button>
          </StepFooter>
        </form>
      ) : null}
      {step === 5 ? (
        <div data-testid="cancel-step-5">
          <StepLabel step={5} />
          {pause ? (
            <>
              <p className="text-lg font-semibold">Pause your membership?</p>
              <p className="mt-2 text-muted">
                PayPal stops billing you and your lessons lock until you resume. Pausing is free.
              </p>
            </>
          ) : (
            <>
              <p className="text-lg font-semibold">Cancel your membership?</p>
              <p className="mt-2 text-muted">PayPal stops billing you now. You keep full access until {endDate}.</p>
              {sub.skipPause ? null : (
                <button
                  type="button"
                  className="mt-3 min-h-11 font-semibold text-accent underline-offset-2 hover:underline"
                  onClick={() => setPause(true)}
                >
                  Pause instead (free)
                </button>
              )}
            </>
          )}
          <StepFooter error={error} back="Keep my membership" onBack={() => go(0)}>
            <Button variant={pause ? 'primary' : 'danger'} disabled={busy} onClick={() => void confirm()}>
              {busy ? 'Working…' : pause ? 'Pause membership' : 'Cancel membership'}
            </Button>
          </StepFooter>
        </div>
      ) : null}
    </Modal>
  );
}

import { useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, CreditCard, ExternalLink } from 'lucide-react';
import { JOIN_URL } from '#shared/commerce';
import type { BillingSubscription } from '#shared/billing';
import { DUNNING_MESSAGES, type EndedUnpaid, type PastDue } from '#shared/dunning';
import { formatMoney } from '#shared/money';
import { ApiError, errorMessage } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field, FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { toast } from '#client/components/ui/toast.tsx';
import { CardForm, useCardForm } from '#client/components/payments/card-form.tsx';
import { BILLING_KEY, cardSetupCall, newIdempotencyKey, payNowCall, updateCardCall } from '../api/billing.ts';

/**
 * Recovery from a failed payment on /account/billing (docs/product/dunning.md): what failed, the
 * next automatic retry and until when lessons stay open; a card member updates the card through the
 * provider's setup flow and pays at once, a PayPal member fixes the funding source at PayPal. A
 * membership that ended unpaid says so. Renders nothing for a membership in good standing.
 */
export function PastDueSection({ sub }: { sub: BillingSubscription }) {
  const [params] = useSearchParams();
  if (sub.ended) return <Ended ended={sub.ended} />;
  if (sub.pastDue) return <Due sub={sub} due={sub.pastDue} />;
  // back from PayPal with the payment collected
  if (params.get('paypal') === 'fixed' && (sub.status === 'active' || sub.status === 'trialing'))
    return (
      <p
        role="status"
        className="flex items-start gap-2 rounded-2xl border border-line bg-accent-soft p-4 font-medium text-accent-strong"
      >
        <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0" />
        {DUNNING_MESSAGES.paid}
      </p>
    );
  return null;
}

function Ended({ ended }: { ended: EndedUnpaid }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      data-testid="membership-ended"
      className="rounded-2xl border border-danger/40 bg-surface p-5 sm:p-6"
    >
      <h2 id={headingId} className="mb-3 flex items-center gap-2 text-xl font-bold">
        <AlertTriangle aria-hidden className="size-6 shrink-0 text-danger" />
        {DUNNING_MESSAGES.endedHeading}
      </h2>
      <p className="mb-4">{DUNNING_MESSAGES.ended(ended)}</p>
      <a href={JOIN_URL} className={buttonClass('primary')}>
        See membership plans
      </a>
    </section>
  );
}

function Due({ sub, due }: { sub: BillingSubscription; due: PastDue }) {
  const headingId = useId();
  const qc = useQueryClient();
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const [updating, setUpdating] = useState(false);
  // the card's form takes the place of "Update card" and leaves with the focus it had: when it is
  // cancelled, the button takes focus again as it comes back
  const backToUpdate = useRef(false);
  const amount = formatMoney(due.amount, due.currency);

  async function payNow() {
    setPaying(true);
    setPayError(null);
    try {
      toast((await payNowCall(newIdempotencyKey())).message);
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      setPayError(errorMessage(err, ['payment', 'subscription']));
    } finally {
      setPaying(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      data-testid="past-due"
      className="rounded-2xl border border-danger/40 bg-surface p-5 sm:p-6"
    >
      <h2 id={headingId} className="mb-3 flex items-center gap-2 text-xl font-bold">
        <AlertTriangle aria-hidden className="size-6 shrink-0 text-danger" />
        {DUNNING_MESSAGES.heading}
      </h2>
      <div className="flex flex-col gap-2">
        <p data-testid="past-due-explain">{DUNNING_MESSAGES.explain(due, sub.paymentMethod)}</p>
        <p data-testid="past-due-retry">{DUNNING_MESSAGES.nextRetry(due)}</p>
        <p data-testid="past-due-grace" className="font-semibold">
          {DUNNING_MESSAGES.grace(due)}
        </p>
        <p className="text-sm text-muted">{DUNNING_MESSAGES.schedule}</p>
      </div>

      {sub.provider === 'paypal' ? (
        <div className="mt-5 flex flex-col gap-3">
          <p>{DUNNING_MESSAGES.paypalHint}</p>
          <div className="flex flex-col gap-3 sm:flex-row">
            {due.fixUrl ? (
              <a href={due.fixUrl} className={buttonClass('primary')} data-testid="paypal-fix">
                <span className="inline-flex items-center gap-2">
                  Fix my payment at PayPal <ExternalLink aria-hidden className="size-4" />
                </span>
              </a>
            ) : null}
            <Button variant="secondary" onClick={() => void payNow()} disabled={paying}>
              {paying ? 'Paying…' : `Pay ${amount} now`}
            </Button>
          </div>
          <FormError message={payError} />
        </div>
      ) : updating ? (
        <UpdateCard
          amount={amount}
          onCancel={() => {
            backToUpdate.current = true;
            setUpdating(false);
          }}
        />
      ) : (
        <div className="mt-5 flex flex-col gap-3">
          <p>{DUNNING_MESSAGES.cardHint}</p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button
              ref={(el) => {
                if (!el || !backToUpdate.current) return;
                backToUpdate.current = false;
                el.focus();
              }}
              onClick={() => setUpdating(true)}
            >
              <span className="inline-flex items-center gap-2">
                <CreditCard aria-hidden className="size-5" /> Update card
              </span>
            </Button>
            <Button variant="secondary" onClick={() => void payNow()} disabled={paying}>
              {paying ? 'Paying…' : `Retry ${amount} with ${sub.paymentMethod || 'my card'}`}
            </Button>
          </div>
          <FormError message={payError} />
        </div>
      )}
    </section>
  );
}

/**
 * A new card through the provider's setup flow (sandbox form or Stripe Elements). With `amount` (a
 * payment is due) it is paid at once with the new card; without, the card is kept for the next payments.
 * What is wrong is shown as every form shows it (components/ui/form-feedback.ts): a missing name under
 * its field, the provider's refusal under the card's fields, a failed payment with the card saved as
 * the form's own message.
 */
export function UpdateCard({ amount, onCancel }: { amount: string | null; onCancel: () => void }) {
  const qc = useQueryClient();
  const card = useCardForm();
  const cardErrorId = useId();
  const [name, setName] = useState('');
  const feedback = useFormFeedback();
  const [busy, setBusy] = useState(false);
  // one key per card: a double submit saves it once
  const [key] = useState(newIdempotencyKey);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!name.trim()) return feedback.show({ name: DUNNING_MESSAGES.cardNameRequired }, null);
    feedback.clear();
    setBusy(true);
    try {
      const { clientSecret } = await cardSetupCall();
      const confirmed = await card.confirmSetup(clientSecret, { name: name.trim() });
      if ('error' in confirmed) return feedback.show({ card: confirmed.error }, null);
      try {
        await updateCardCall(confirmed.paymentMethod, key);
      } catch (err) {
        return feedback.show({ card: errorMessage(err, ['payment_method', 'payment', 'subscription']) }, null);
      }
      if (amount === null) {
        toast(DUNNING_MESSAGES.cardUpdated);
        onCancel();
        await qc.invalidateQueries({ queryKey: BILLING_KEY });
        return;
      }
      try {
        toast((await payNowCall(newIdempotencyKey())).message);
      } catch (err) {
        feedback.show(
          {},
          `${DUNNING_MESSAGES.cardUpdated} ${err instanceof ApiError ? errorMessage(err, ['payment', 'subscription']) : errorMessage(err, [])}`,
        );
      }
      await qc.invalidateQueries({ queryKey: BILLING_KEY });
    } catch (err) {
      feedback.show({ card: errorMessage(err, ['payment', 'subscription']) }, null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={feedback.formRef}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Update your card"
      className="mt-5 flex flex-col gap-4 rounded-xl border border-line bg-surface-2 p-4"
    >
      <Field
        label="Name on card"
        autoComplete="cc-name"
        autoFocus
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          feedback.edited('name');
        }}
        error={feedback.error('name')}
        disabled={busy}
      />
      <div className="flex flex-col gap-1.5">
        <CardForm
          ref={card.ref}
          disabled={busy}
          label="New card"
          errorId={feedback.errors.card ? cardErrorId : undefined}
        />
        <FieldMessage id={cardErrorId} message={feedback.errors.card} />
      </div>
      <FormError message={feedback.summary} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button type="submit" disabled={busy}>
          {amount === null ? (busy ? 'Saving…' : 'Save card') : busy ? 'Paying…' : `Save card and pay ${amount}`}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CreditCard, Lock } from 'lucide-react';
import {
  MENTORSHIP_CARD_PAYMENTS,
  MENTORSHIP_CHECKOUT_MESSAGES as CM,
  MENTORSHIP_MESSAGES as M,
  mentorshipChargeUrl,
  type MentorshipCardPayment,
} from '#shared/mentorship-checkout';
import { ApiError } from '#client/lib/api.ts';
import { CardForm, useCardForm } from '#client/components/payments/card-form.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  chargeCard,
  fetchClientSecret,
  financeCheckout,
  navigate,
  newAttemptKey,
  useMentorshipCheckout,
} from '../api.ts';
import { AccountSteps, AlreadyEnrolled, knownBuyer, SignedInAs, StepHeader, type Buyer } from './account-steps.tsx';
import { formatMoney } from '#shared/money';

/** "3 monthly payments of $1,300.00 (total $3,900.00)" */
function describe(payment: MentorshipCardPayment) {
  const p = MENTORSHIP_CARD_PAYMENTS[payment];
  if (payment === 'finance')
    return {
      title: p.label,
      dueToday: formatMoney(p.amountCents),
      detail: `${formatMoney(p.totalCents)} through a financing partner: choose monthly payments at checkout.`,
    };
  if (p.instalments > 1)
    return {
      title: p.label,
      dueToday: formatMoney(p.amountCents),
      detail: `${p.instalments} monthly payments of ${formatMoney(p.amountCents)} (total ${formatMoney(p.totalCents)}). The first is charged today; they stop after the last one.`,
    };
  return {
    title: p.label,
    dueToday: formatMoney(p.amountCents),
    detail: 'One payment. Yours for the whole programme.',
  };
}

/**
 * The card error under the card element, in the provider's words: announced on its own (`alert`) on a
 * page without a form; inside a form it carries the id the card's fields point at, and the form's
 * summary announces it (components/ui/form-feedback.ts).
 */
export function CardError({ message, id }: { message: string | null | undefined; id?: string }) {
  return message ? (
    <p id={id} role={id ? undefined : 'alert'} className="text-sm font-medium text-danger" data-testid="card-error">
      {message}
    </p>
  ) : null;
}

/**
 * /mentorship/stripe/{payment} (docs/product/mentorship.md): steps 1 / create / 2; step 2 shows the amount
 * and the card form, confirms the card set-up and goes to the return address
 * /mentorship/stripe/charge?payment={payment} with the payment method. 'finance' links to
 * /mentorship/stripe/checkout instead.
 */
export function MentorshipCardCheckout({ payment }: { payment: MentorshipCardPayment }) {
  const d = describe(payment);
  return (
    <div className="mx-auto max-w-2xl">
      <p className="text-sm font-bold uppercase tracking-widest text-accent-strong">Backbeat mentorship</p>
      <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">{d.title}</h1>
      <p className="mt-2 text-lg text-muted">{d.detail}</p>
      <div className="mt-8 rounded-2xl border border-line bg-surface p-5 shadow-sm sm:p-7">
        <AccountSteps signInTo={`/mentorship/stripe/${payment}`}>
          {(buyer, moved) => <CardStep buyer={buyer} payment={payment} moved={moved} />}
        </AccountSteps>
      </div>
    </div>
  );
}

function CardStep({ buyer, payment, moved }: { buyer: Buyer; payment: MentorshipCardPayment; moved: boolean }) {
  const status = useMentorshipCheckout();
  const d = describe(payment);
  if (status.data?.enrolled) return <AlreadyEnrolled />;
  return (
    <section className="flex flex-col gap-6">
      <div>
        <StepHeader step={2} title="Payment" focus={moved} />
        <SignedInAs buyer={buyer} />
      </div>
      <dl className="flex items-baseline justify-between gap-3 rounded-xl border border-line px-4 py-3">
        <dt className="text-base text-muted">Due today</dt>
        <dd className="text-3xl font-extrabold tabular-nums" data-testid="amount">
          {d.dueToday}
        </dd>
      </dl>
      {payment === 'finance' ? (
        <div className="flex flex-col gap-2">
          <a href="/mentorship/stripe/checkout" className={buttonClass('primary', true) + ' min-h-14 text-lg'}>
            <CreditCard aria-hidden className="size-5" /> Go to checkout
          </a>
          <p className="text-center text-sm text-muted">
            On the secure checkout you choose the financing option and your monthly payments.
          </p>
        </div>
      ) : (
        <CardPayForm buyer={buyer} payment={payment} />
      )}
    </section>
  );
}

function CardPayForm({ buyer, payment }: { buyer: Buyer; payment: Exclude<MentorshipCardPayment, 'finance'> }) {
  const card = useCardForm();
  const [name, setName] = useState(buyer.name);
  const feedback = useFormFeedback();
  const cardErrorId = useId();
  const [paying, setPaying] = useState(false);
  const busy = useRef(false);
  const d = describe(payment);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy.current) return;
    busy.current = true;
    setPaying(true);
    feedback.clear();
    let leaving = false;
    try {
      let secret: string;
      try {
        secret = (await fetchClientSecret()).clientSecret;
      } catch {
        feedback.show({ card: M.clientSecretFailed }, null);
        return;
      }
      const confirmed = await card.confirmSetup(secret, { name: name.trim() || buyer.name });
      if ('error' in confirmed) {
        feedback.show({ card: confirmed.error }, null);
        return;
      }
      // the card provider's return address, with the confirmed payment method
      leaving = true;
      navigate.to(`${mentorshipChargeUrl(payment)}&payment_method=${encodeURIComponent(confirmed.paymentMethod)}`);
    } finally {
      busy.current = false;
      if (!leaving) setPaying(false);
    }
  }

  return (
    <form
      ref={feedback.formRef}
      id="mentorship-card-form"
      onSubmit={submit}
      noValidate
      aria-busy={paying}
      className="flex flex-col gap-4"
    >
      <Field
        label="Name on card"
        name="card_holder"
        autoComplete="cc-name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <div className="flex flex-col gap-1.5">
        <CardForm ref={card.ref} disabled={paying} errorId={feedback.errors.card ? cardErrorId : undefined} />
        <CardError id={cardErrorId} message={feedback.errors.card} />
      </div>
      <FormError message={feedback.summary} />
      <Button type="submit" full disabled={paying} className="min-h-14 text-lg">
        {paying ? (
          <Spinner label="Processing your payment" className="[&_svg]:text-accent-fg" />
        ) : (
          <Lock aria-hidden className="size-5" />
        )}
        Pay {d.dueToday} now
      </Button>
      <p className="flex items-center justify-center gap-1.5 text-sm text-muted">
        <Lock aria-hidden className="size-4" /> Secure payment. We never store your card number.
      </p>
    </form>
  );
}

/**
 * /mentorship/stripe/charge?payment=…&payment_method=… (the card provider's return address): posts
 * the payment once, then /mentorship; a 3-D Secure step goes to the bank's page and back; a refusal
 * shows the provider's words under the card with a way back to try another card.
 */
export function MentorshipCharge({ search }: { search: URLSearchParams }) {
  const payment = search.get('payment') as MentorshipCardPayment | null;
  const paymentMethod = search.get('payment_method') ?? search.get('setup_intent_payment_method') ?? '';
  const outcome = search.get('outcome');
  const valid = !!payment && payment !== 'finance' && payment in MENTORSHIP_CARD_PAYMENTS && paymentMethod !== '';
  const [state, setState] = useState<
    { kind: 'charging' } | { kind: 'declined'; message: string } | { kind: 'error'; message: string }
  >(
    outcome === 'fail'
      ? {
          kind: 'declined',
          message:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        }
      : { kind: 'charging' },
  );
  const started = useRef(false);

  useEffect(() => {
    if (!valid || started.current || state.kind !== 'charging') return;
    started.current = true;
    chargeCard({ payment: payment as Exclude<MentorshipCardPayment, 'finance'>, payment_method: paymentMethod })
      .then((res) => {
        if ('requires_action' in res) {
          if (res.url) {
            const back = `${window.location.pathname}${window.location.search.replace(/([?&])outcome=[^&]*/g, '$1').replace(/[?&]$/, '')}`;
            navigate.to(`${res.url}?return=${encodeURIComponent(back)}`);
          } else setState({ kind: 'declined', message: CM.authenticationNeeded });
          return;
        }
        navigate.to(res.url);
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 402 || err.errors?.card))
          setState({ kind: 'declined', message: err.firstError(['card']) ?? err.message });
        else
          setState({
            kind: 'error',
            message: err instanceof ApiError ? err.message : 'We could not reach the server. Please try again.',
          });
      });
  }, [valid, payment, paymentMethod, state.kind]);

  const back =
    payment && payment in MENTORSHIP_CARD_PAYMENTS ? `/mentorship/stripe/${payment}` : '/mentorship/checkout';
  return (
    <div className="mx-auto max-w-lg">
      <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm sm:p-8">
        {!valid ? (
          <>
            <h1 className="text-2xl font-bold">This payment link is incomplete</h1>
            <p className="mt-2 text-muted">Please enter your card again.</p>
            <a href={back} className={buttonClass() + ' mt-6'}>
              Back to the payment
            </a>
          </>
        ) : state.kind === 'charging' ? (
          <div className="flex flex-col items-center gap-4 py-6 text-center">
            <Spinner label="Charging your card" />
            <h1 className="text-2xl font-bold">Charging your card…</h1>
            <p className="text-muted">Please keep this page open. It takes a few seconds.</p>
          </div>
        ) : (
          <>
            <h1 className="text-2xl font-bold">
              {state.kind === 'declined' ? 'Your card was not charged' : 'The payment did not go through'}
            </h1>
            <div className="mt-4 flex flex-col gap-1.5 rounded-xl border border-line p-4">
              <span className="flex items-center gap-2 text-sm font-semibold">
                <CreditCard aria-hidden className="size-4" /> Card
              </span>
              <CardError message={state.message} />
            </div>
            <div className="mt-6 flex flex-wrap gap-3">
              <a href={back} className={buttonClass()}>
                Try another card
              </a>
              {state.message === M.alreadyEnrolled ? (
                <a href="/mentorship" className={buttonClass('secondary')}>
                  Go to the mentorship area
                </a>
              ) : null}
            </div>
          </>
        )}
      </div>
    </div>
  );
}

/** /mentorship/stripe/checkout: opens the financing option's hosted checkout (3,900) and goes there. */
export function MentorshipFinanceCheckout() {
  const signedIn = knownBuyer() !== null;
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(-1);
  const key = useRef(newAttemptKey());
  useEffect(() => {
    if (!signedIn || started.current === attempt) return;
    started.current = attempt;
    financeCheckout({ idempotency_key: key.current })
      .then(({ url }) => navigate.to(url))
      .catch((err: unknown) => {
        key.current = newAttemptKey();
        setError(err instanceof ApiError && err.status < 500 ? err.message : CM.checkoutFailed);
      });
  }, [signedIn, attempt]);
  return (
    <div className="mx-auto max-w-lg">
      <div className="rounded-2xl border border-line bg-surface p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold">Finance your mentorship</h1>
        {!signedIn ? (
          <>
            <p className="mt-2 text-muted">
              Sign in or create your account first, then continue to the secure checkout.
            </p>
            <a href="/mentorship/stripe/finance" className={buttonClass() + ' mt-6'}>
              Continue
            </a>
          </>
        ) : error === M.alreadyEnrolled ? (
          // nothing to finance: say so as good news, with the way in, and no retry that cannot work
          <div className="mt-4 flex flex-col items-start gap-4">
            <p role="status" className="rounded-xl bg-success-soft px-4 py-3 text-lg">
              {error}
            </p>
            <a href="/mentorship" className={buttonClass()}>
              Go to the mentorship area
            </a>
          </div>
        ) : error ? (
          <div className="mt-4 flex flex-col gap-4">
            <FormError message={error} />
            <div className="flex flex-wrap gap-3">
              <Button onClick={() => (setError(null), setAttempt((a) => a + 1))}>Try again</Button>
              <a href="/mentorship/stripe/finance" className={buttonClass('secondary')}>
                Back
              </a>
            </div>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-3 py-6 text-center">
            <Spinner label="Opening the secure checkout" />
            <p className="text-muted">Taking you to the secure checkout…</p>
          </div>
        )}
      </div>
    </div>
  );
}

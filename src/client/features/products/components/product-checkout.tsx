import { useId, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';
import { CircleCheckBig, CreditCard, Lock } from 'lucide-react';
import { COMMERCE_MESSAGES, type PaymentType } from '#shared/commerce';
import { LEVEL_FEATURES, LEVEL_TITLES, PRODUCT_MESSAGES, type PaypalOutcome, type Tier } from '#shared/products';
import { ApiError } from '#client/lib/api.ts';
import { pageConfig } from '#client/lib/page-config.ts';
import { registerAndSignIn } from '#client/lib/register.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { CardForm, useCardForm } from '#client/components/payments/card-form.tsx';
import { productApi, navigate } from '../api/products.ts';
import { SpotsLeft, TierPrice } from './tier-picker.tsx';

const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

const PAYPAL_MESSAGES: Record<PaypalOutcome, string> = {
  canceled: COMMERCE_MESSAGES.paymentCanceled,
  failed: PRODUCT_MESSAGES.paypalFailed,
  sold_out: COMMERCE_MESSAGES.soldOut,
  owned: PRODUCT_MESSAGES.alreadyOwned,
};

interface Props {
  tier: Tier;
  /** "Double Kick Mastery" or the course title */
  productTitle: string;
  owned: boolean;
  /** where "Start the course" goes once owned */
  courseUrl: string | null;
  affiliate: string | null;
  /** this checkout's own address (the sign-in link returns here) */
  checkoutUrl: string;
  /** the registration flag (double kick: dkm_signup) */
  signupFlag: 'dkm_signup' | null;
  paypalOutcome: PaypalOutcome | null;
}

/**
 * The checkout of a double-kick or course tier (docs/product/course-products.md): a visitor registers first (or signs
 * in), then pays by card or PayPal. The server prices the order; the key makes a double submit one.
 */
export function ProductCheckout(props: Props) {
  const config = pageConfig();
  const [account, setAccount] = useState(
    config.authId ? { name: config.authName ?? '', email: config.authEmail ?? '' } : null,
  );
  const { tier } = props;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
      <div className="flex flex-col gap-6">
        {props.owned ? (
          <Owned courseUrl={props.courseUrl} />
        ) : tier.sold_out ? (
          <section className="rounded-2xl border border-line bg-surface p-6">
            <p role="alert" className="rounded-xl bg-danger-soft px-4 py-3 text-base font-semibold text-danger">
              {COMMERCE_MESSAGES.soldOut}
            </p>
          </section>
        ) : (
          <>
            <AccountStep
              account={account}
              onRegistered={setAccount}
              checkoutUrl={props.checkoutUrl}
              signupFlag={props.signupFlag}
            />
            {account ? <PaymentStep {...props} holder={account.name} /> : <LockedPayment />}
          </>
        )}
      </div>
      <Summary {...props} />
    </div>
  );
}

function StepHeading({ n, title, done }: { n: number; title: string; done?: boolean }) {
  return (
    <h2 className="flex items-center gap-3 text-xl font-bold">
      <span
        aria-hidden
        className={clsx(
          'flex size-8 items-center justify-center rounded-full text-base font-bold',
          done ? 'bg-success text-white' : 'bg-accent text-accent-fg',
        )}
      >
        {done ? <CircleCheckBig className="size-5" /> : n}
      </span>
      {title}
    </h2>
  );
}

function AccountStep({
  account,
  onRegistered,
  checkoutUrl,
  signupFlag,
}: {
  account: { name: string; email: string } | null;
  onRegistered: (a: { name: string; email: string }) => void;
  checkoutUrl: string;
  signupFlag: 'dkm_signup' | null;
}) {
  const [form, setForm] = useState({ name: '', email: '', email_confirmation: '', password: '' });
  const feedback = useFormFeedback();
  const [loading, setLoading] = useState(false);
  const loginUrl = `/login?to=${encodeURIComponent(checkoutUrl)}`;

  if (account) {
    return (
      <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="account-step">
        <div id="account-step">
          <StepHeading n={1} title="Your account" done />
        </div>
        <p className="mt-3 text-base text-muted">
          Signed in as <span className="font-semibold text-fg">{account.name}</span> ({account.email})
        </p>
      </section>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (loading) return;
    feedback.clear();
    setLoading(true);
    try {
      const res = await registerAndSignIn<{ name: string; email: string }>({
        ...form,
        ...(signupFlag ? { [signupFlag]: true } : {}),
      });
      onRegistered({ name: res.name, email: res.email });
    } catch (err) {
      // each field's message under it (components/ui/form-feedback.ts), else the general message
      feedback.fail(err, COMMERCE_MESSAGES.registrationFailed);
    } finally {
      setLoading(false);
    }
  };
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    feedback.edited(k);
  };

  return (
    <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="account-step">
      <div id="account-step">
        <StepHeading n={1} title="Create your account" />
      </div>
      <p className="mt-2 text-base text-muted">
        Already have an account?{' '}
        <a href={loginUrl} className="font-semibold text-accent-strong underline underline-offset-2">
          Sign in
        </a>
      </p>
      <form ref={feedback.formRef} className="mt-5 flex flex-col gap-4" onSubmit={submit} noValidate>
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={form.name}
          error={feedback.error('name')}
          onChange={set('name')}
          required
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            error={feedback.error('email')}
            onChange={set('email')}
            required
          />
          <Field
            label="Confirm email"
            name="email_confirmation"
            type="email"
            autoComplete="email"
            value={form.email_confirmation}
            error={feedback.error('email_confirmation')}
            onChange={set('email_confirmation')}
            required
          />
        </div>
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={form.password}
          error={feedback.error('password')}
          onChange={set('password')}
          required
        />
        <FormError message={feedback.summary} />
        <Button type="submit" full disabled={loading} aria-busy={loading || undefined} className="min-h-12">
          {loading ? 'Creating your account…' : 'Create account and continue'}
        </Button>
      </form>
    </section>
  );
}

function LockedPayment() {
  return (
    <section className="rounded-2xl border border-dashed border-line bg-surface p-5 text-muted sm:p-6">
      <StepHeading n={2} title="Payment" />
      <p className="mt-2 text-base">Create your account (or sign in) to pay.</p>
    </section>
  );
}

function PaymentStep({ tier, affiliate, paypalOutcome, holder: initialHolder }: Props & { holder: string }) {
  const [type, setType] = useState<PaymentType>('card');
  const [holder, setHolder] = useState(initialHolder);
  const feedback = useFormFeedback();
  const cardErrorId = useId();
  const setCardError = (message: string) => feedback.show({ card: message }, null);
  const [paypalError, setPaypalError] = useState<string | null>(paypalOutcome ? PAYPAL_MESSAGES[paypalOutcome] : null);
  const [loadingPayment, setLoadingPayment] = useState(false);
  const key = useRef(newKey());
  const card = useCardForm();

  const fail = (err: unknown, where: 'card' | 'paypal', fallback: string) => {
    const message = err instanceof ApiError ? (err.firstError([where]) ?? err.message) : fallback;
    if (where === 'card') setCardError(message);
    else setPaypalError(message);
    // a new attempt is a new order
    key.current = newKey();
    setLoadingPayment(false);
  };

  const payByCard = async () => {
    if (!holder.trim()) {
      setLoadingPayment(false);
      return feedback.show({ card_holder: COMMERCE_MESSAGES.cardHolderRequired }, null);
    }
    let secret: string;
    try {
      secret = (await productApi.clientSecret(tier.slug)).clientSecret;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return fail(err, 'card', err.message);
      setLoadingPayment(false);
      return window.alert(COMMERCE_MESSAGES.clientSecretFailed);
    }
    const confirmed = await card.confirmSetup(secret, { name: holder.trim() });
    if ('error' in confirmed) return fail(null, 'card', confirmed.error);
    try {
      const { url } = await productApi.payByCard(tier.slug, {
        stripeToken: confirmed.paymentMethod,
        affiliate,
        idempotency_key: key.current,
      });
      navigate.to(url);
    } catch (err) {
      fail(err, 'card', COMMERCE_MESSAGES.cardDeclined);
    }
  };

  const payByPaypal = async () => {
    try {
      const { url } = await productApi.payByPaypal(tier.slug, { affiliate, idempotency_key: key.current });
      navigate.to(url);
    } catch (err) {
      fail(err, 'paypal', COMMERCE_MESSAGES.paypalLinkFailed);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (loadingPayment) return;
    feedback.clear();
    setPaypalError(null);
    setLoadingPayment(true);
    if (type === 'card') await payByCard();
    else await payByPaypal();
  };

  return (
    <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="payment-step">
      <div id="payment-step">
        <StepHeading n={2} title="Payment" />
      </div>
      <form ref={feedback.formRef} className="mt-5 flex flex-col gap-5" onSubmit={submit} noValidate>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">Pay with</legend>
          <div className="grid grid-cols-2 gap-3">
            {(['card', 'paypal'] as const).map((t) => (
              <label
                key={t}
                className={clsx(
                  'flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border px-4 text-base font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent/40',
                  type === t
                    ? 'border-accent bg-accent-soft text-accent-strong'
                    : 'border-line bg-surface hover:bg-surface-2',
                )}
              >
                <input
                  type="radio"
                  name="payment_type"
                  value={t}
                  checked={type === t}
                  onChange={() => setType(t)}
                  className="sr-only"
                />
                {t === 'card' ? <CreditCard aria-hidden className="size-5" /> : null}
                {t === 'card' ? 'Card' : 'PayPal'}
              </label>
            ))}
          </div>
          {paypalError ? (
            <p role="alert" className="mt-2 text-sm font-medium text-danger" data-testid="paypal-error">
              {paypalError}
            </p>
          ) : null}
        </fieldset>
        {type === 'card' ? (
          <>
            <Field
              label="Card holder name"
              name="card_holder"
              autoComplete="cc-name"
              value={holder}
              error={feedback.error('card_holder')}
              onChange={(e) => {
                setHolder(e.target.value);
                feedback.edited('card_holder');
              }}
            />
            <div>
              <CardForm
                ref={card.ref}
                disabled={loadingPayment}
                errorId={feedback.errors.card ? cardErrorId : undefined}
              />
              {feedback.errors.card ? (
                <p id={cardErrorId} className="mt-1.5 text-sm font-medium text-danger" data-testid="card-error">
                  {feedback.errors.card}
                </p>
              ) : null}
            </div>
          </>
        ) : (
          <p className="text-base text-muted">You will approve the payment with PayPal and come straight back here.</p>
        )}
        <FormError message={feedback.summary} />
        <Button
          type="submit"
          full
          disabled={loadingPayment}
          aria-busy={loadingPayment || undefined}
          className="min-h-12 text-lg"
        >
          <Lock aria-hidden className="size-5" />
          {loadingPayment
            ? 'Processing…'
            : type === 'card'
              ? `Pay ${LEVEL_TITLES[tier.level]} now`
              : 'Continue to PayPal'}
        </Button>
      </form>
    </section>
  );
}

function Owned({ courseUrl }: { courseUrl: string | null }) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-6 text-center">
      <CircleCheckBig aria-hidden className="mx-auto size-12 text-success" />
      <p role="status" className="mt-3 text-lg font-semibold">
        {PRODUCT_MESSAGES.alreadyOwned}
      </p>
      {courseUrl ? (
        <a href={courseUrl} className={clsx(buttonClass(), 'mt-5 min-h-12')}>
          Go to the course
        </a>
      ) : null}
    </section>
  );
}

function Summary({ tier, productTitle, affiliate }: Props) {
  return (
    <aside
      className="order-first rounded-2xl border border-line bg-surface p-5 sm:p-6 lg:sticky lg:top-24 lg:order-none"
      aria-label="Order summary"
    >
      <p className="text-sm font-semibold uppercase tracking-wide text-muted">Your order</p>
      <h2 className="mt-1 text-xl font-bold">
        {productTitle}: {LEVEL_TITLES[tier.level]}
      </h2>
      <div className="mt-3">
        <TierPrice tier={tier} size="md" />
      </div>
      <div className="mt-2">
        <SpotsLeft tier={tier} />
      </div>
      <ul className="mt-4 flex flex-col gap-1.5 text-base text-muted">
        {LEVEL_FEATURES[tier.level].map((f) => (
          <li key={f}>• {f}</li>
        ))}
      </ul>
      {affiliate ? <p className="mt-4 text-sm text-muted">Referred by {affiliate}</p> : null}
    </aside>
  );
}

import { useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import clsx from 'clsx';
import { CalendarCheck, CreditCard, Headphones, Lock, ShieldCheck, Sparkles } from 'lucide-react';
import {
  COMMERCE_MESSAGES as M,
  DEFAULT_PLAN,
  type CheckoutPlan,
  type MembershipPlan,
  type PaymentType,
} from '#shared/commerce';
import { checkoutErrors, type CheckoutAnswer, type CheckoutForm } from '#shared/checkout';
import { ApiError, NETWORK_ERROR } from '#client/lib/api.ts';
import { Field, FieldMessage, FormError } from '#client/components/ui/field.tsx';
import { invalidProps, useFormFeedback } from '#client/components/ui/form-feedback.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  fetchClientSecret,
  navigate,
  newAttemptKey,
  payByCard,
  paypalApprovalUrl,
  paypalLifetimeCheckout,
  registerGuest,
  useCheckout,
} from '../api/checkout.ts';
import { CardField, type CardHandle } from './card-field.tsx';
import { centsOf, PlanOptions, planViews } from './plan-options.tsx';
import { formatMoney } from '#shared/money';

/** a failed registration's own message when no field is wrong: the rate limit's sentence, else the general one */
const registrationFailed = (err: unknown) =>
  err instanceof ApiError && err.status === 429 ? err.message : M.registrationFailed;

/** the form field each value of the checkout lives in (the names its messages use) */
const FIELD_NAMES: Record<keyof CheckoutForm, string> = {
  plan: 'plan',
  paymentType: 'payment_type',
  name: 'name',
  email: 'email',
  emailConfirmation: 'email_confirmation',
  password: 'password',
  cardHolder: 'card_holder',
  terms: 'terms',
};

const PAYPAL_FLAGS: Record<string, string> = { cancelled: M.paymentCanceled, failed: M.paypalLinkFailed };

/**
 * The membership checkout (docs/product/membership-checkout.md): plan, payment type, guest fields, card holder, card,
 * terms. A guest registers first, then pays; `loadingPayment` blocks a second submit. Every wrong field
 * shows its message under it, as in every form (components/ui/form-feedback.ts).
 */
export function MembershipCheckout({ slug, search }: { slug: string; search: URLSearchParams }) {
  const query = useCheckout(slug);
  if (query.isPending) return <Spinner label="Loading the checkout" className="py-24" />;
  if (query.isError || !query.data) {
    return (
      <div className="mx-auto max-w-lg py-16 text-center">
        <h1 className="text-3xl font-extrabold">This checkout does not exist</h1>
        <p className="mt-3 text-lg text-muted">The link may be old. Our current plans are one tap away.</p>
        <a href="/join" className={clsx(buttonClass(), 'mt-6')}>
          See membership plans
        </a>
      </div>
    );
  }
  return <CheckoutScreen data={query.data} slug={slug} search={search} />;
}

function CheckoutScreen({ data, slug, search }: { data: CheckoutAnswer; slug: string; search: URLSearchParams }) {
  const { plan: p } = data;
  const views = useMemo(() => planViews(p), [p]);
  const flag = search.get('paypal');
  const initialPlan =
    (['monthly', 'yearly', 'lifetime'] as const).find((x) => x === search.get('plan')) ?? DEFAULT_PLAN;
  const [form, setForm] = useState<CheckoutForm>({
    plan: initialPlan,
    paymentType: flag ? 'paypal' : 'card',
    name: '',
    email: '',
    emailConfirmation: '',
    password: '',
    cardHolder: data.user?.name ?? '',
    terms: false,
  });
  const [registered, setRegistered] = useState<{ email: string } | null>(data.user ? { email: data.user.email } : null);
  const guest = registered === null;
  const feedback = useFormFeedback();
  const termsErrorId = useId();
  const [paypalError, setPaypalError] = useState<string | null>(flag ? (PAYPAL_FLAGS[flag] ?? null) : null);
  const [loadingPayment, setLoadingPayment] = useState(false);
  const busy = useRef(false);
  const attemptKey = useRef(newAttemptKey());
  const clientSecret = useRef<string | null>(null);
  const card = useRef<CardHandle>(null);

  if (data.subscribed) return <AlreadySubscribed plan={p} />;

  const set = <K extends keyof CheckoutForm>(key: K, value: CheckoutForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    feedback.edited(FIELD_NAMES[key]);
  };
  /** a card problem: under the card, with focus on it */
  const cardError = (message: string) => feedback.show({ card: message }, null);
  const selected = views.find((v) => v.plan === form.plan);

  /** a new client secret for the card form (first use, and after every card failure) */
  async function loadClientSecret(): Promise<string | null> {
    try {
      clientSecret.current = (await fetchClientSecret()).clientSecret;
      return clientSecret.current;
    } catch {
      clientSecret.current = null;
      cardError(M.clientSecretFailed);
      return null;
    }
  }

  /** a refused attempt: the next try is a new attempt (new key, new client secret) */
  function failedAttempt() {
    attemptKey.current = newAttemptKey();
    clientSecret.current = null;
    void loadClientSecret();
  }

  async function payWithCard(plan: MembershipPlan): Promise<boolean> {
    const secret = clientSecret.current ?? (await loadClientSecret());
    if (!secret) return false;
    const handle = card.current;
    if (!handle) return false;
    const confirmed = await handle.confirmSetup(secret, { name: form.cardHolder.trim() });
    if ('error' in confirmed) {
      cardError(confirmed.error);
      failedAttempt();
      return false;
    }
    try {
      const res = await payByCard({
        checkout: slug,
        stripeToken: confirmed.paymentMethod,
        plan,
        idempotency_key: attemptKey.current,
      });
      if ('requires_action' in res) {
        if (res.url) {
          navigate.to(res.url);
          return true;
        }
        cardError('Your bank needs to confirm this payment. Please try again.');
        return false;
      }
      navigate.to(res.url);
      return true;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 402 || err.errors?.card)) {
        cardError(err.firstError(['card']) ?? err.message);
        failedAttempt();
      } else if (err instanceof ApiError) {
        // the plan's message under the plan; one about the checkout or the card token is the form's own
        feedback.fail(err, err.firstError(['checkout', 'stripeToken']) ?? err.message);
        if (err.status >= 500) failedAttempt();
      } else {
        cardError(NETWORK_ERROR);
      }
      return false;
    }
  }

  async function payWithPaypal(plan: MembershipPlan): Promise<boolean> {
    try {
      const res =
        plan === 'lifetime'
          ? await paypalLifetimeCheckout({ checkout: slug, idempotency_key: attemptKey.current })
          : await paypalApprovalUrl({ plan, checkout: slug, idempotency_key: attemptKey.current });
      navigate.to(res.url);
      return true;
    } catch (err) {
      setPaypalError(
        err instanceof ApiError && err.status < 500
          ? (err.firstError(['plan', 'checkout']) ?? err.message)
          : M.paypalLinkFailed,
      );
      attemptKey.current = newAttemptKey();
      return false;
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy.current || loadingPayment) return;
    feedback.clear();
    setPaypalError(null);
    const wrong = checkoutErrors(form, guest);
    if (wrong.length) {
      const fields: Record<string, string> = {};
      for (const { field, message } of wrong) fields[field] ??= message;
      feedback.show(fields, null);
      return;
    }
    busy.current = true;
    setLoadingPayment(true);
    let leaving = false;
    try {
      if (guest) {
        try {
          const user = await registerGuest({
            name: form.name.trim(),
            email: form.email.trim(),
            email_confirmation: form.emailConfirmation.trim(),
            password: form.password,
            checkout_slug: slug,
          });
          setRegistered({ email: user.email });
          if (!form.cardHolder.trim()) set('cardHolder', user.name);
        } catch (err) {
          feedback.fail(err, registrationFailed(err));
          return;
        }
      }
      const plan = form.plan as MembershipPlan;
      leaving = form.paymentType === 'card' ? await payWithCard(plan) : await payWithPaypal(plan);
    } finally {
      busy.current = false;
      // leaving for the order page or PayPal: keep the button blocked until the page goes
      if (!leaving) setLoadingPayment(false);
    }
  }

  return (
    <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-10">
      <div className="min-w-0">
        <p className="text-sm font-bold uppercase tracking-widest text-accent-strong">Backbeat membership</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">{p.heading}</h1>
        {p.subheading ? <p className="mt-2 max-w-2xl text-lg text-muted">{p.subheading}</p> : null}

        <form
          ref={feedback.formRef}
          id="checkout-form"
          onSubmit={submit}
          noValidate
          className="mt-6 flex flex-col gap-8"
          aria-busy={loadingPayment}
        >
          <PlanOptions plan={form.plan} views={views} onChange={(v) => set('plan', v)} error={feedback.error('plan')} />

          {guest ? (
            <fieldset className="flex flex-col gap-4">
              <legend className="mb-1 text-lg font-bold">2. Create your account</legend>
              <p className="-mt-2 text-base text-muted">
                Already a member?{' '}
                <a
                  className="font-semibold text-accent-strong underline-offset-2 hover:underline"
                  href={`/login?to=${encodeURIComponent(typeof window === 'undefined' ? '/join' : window.location.pathname)}`}
                >
                  Sign in
                </a>
              </p>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  className="sm:col-span-2"
                  label="Your name"
                  name="name"
                  autoComplete="name"
                  value={form.name}
                  onChange={(e) => set('name', e.target.value)}
                  error={feedback.error('name')}
                />
                <Field
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  value={form.email}
                  onChange={(e) => set('email', e.target.value)}
                  error={feedback.error('email')}
                />
                <Field
                  label="Confirm email"
                  name="email_confirmation"
                  type="email"
                  autoComplete="email"
                  value={form.emailConfirmation}
                  onChange={(e) => set('emailConfirmation', e.target.value)}
                  error={feedback.error('email_confirmation')}
                />
                <Field
                  className="sm:col-span-2"
                  label="Password"
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  hint="At least 8 characters."
                  value={form.password}
                  onChange={(e) => set('password', e.target.value)}
                  error={feedback.error('password')}
                />
              </div>
            </fieldset>
          ) : (
            <p className="flex items-center gap-2 rounded-xl bg-surface-2 px-4 py-3 text-base">
              <ShieldCheck aria-hidden className="size-5 shrink-0 text-success" />
              <span>
                Signed in as <strong className="break-all">{registered.email}</strong>
              </span>
            </p>
          )}

          <fieldset className="flex flex-col gap-4">
            <legend className="mb-1 text-lg font-bold">{guest ? '3.' : '2.'} Pay with</legend>
            <div role="radiogroup" aria-label="Payment type" className="grid grid-cols-2 gap-3">
              <PaymentChoice type="card" current={form.paymentType} onChange={(t) => set('paymentType', t)}>
                <CreditCard aria-hidden className="size-5" /> Card
              </PaymentChoice>
              <PaymentChoice type="paypal" current={form.paymentType} onChange={(t) => set('paymentType', t)}>
                <span aria-hidden className="font-extrabold italic text-[#003087]">
                  Pay<span className="text-[#0070ba]">Pal</span>
                </span>
                <span className="sr-only">PayPal</span>
              </PaymentChoice>
            </div>
            {paypalError ? (
              <p
                role="alert"
                data-testid="paypal-error"
                className="rounded-lg bg-danger-soft px-3 py-2 text-base font-medium text-danger"
              >
                {paypalError}
              </p>
            ) : null}

            {form.paymentType === 'card' ? (
              <div className="flex flex-col gap-4">
                <Field
                  label="Card holder name"
                  name="card_holder"
                  autoComplete="cc-name"
                  value={form.cardHolder}
                  onChange={(e) => set('cardHolder', e.target.value)}
                  error={feedback.error('card_holder')}
                />
                <CardField ref={card} error={feedback.error('card') ?? null} disabled={loadingPayment} />
              </div>
            ) : (
              <p className="text-base text-muted">
                You will approve the payment at PayPal, then come straight back here.
              </p>
            )}
          </fieldset>

          <div className="flex flex-col gap-1.5">
            <label className="flex min-h-11 cursor-pointer items-start gap-3 text-base">
              <input
                type="checkbox"
                name="terms"
                className="mt-0.5 size-6 shrink-0 accent-[var(--accent)]"
                checked={form.terms}
                onChange={(e) => set('terms', e.target.checked)}
                {...invalidProps(feedback.error('terms'), termsErrorId)}
              />
              <span>
                I accept the{' '}
                <a
                  href="/terms"
                  target="_blank"
                  rel="noopener"
                  className="font-semibold text-accent-strong underline underline-offset-2"
                >
                  DBO Terms
                </a>
                {form.plan !== 'lifetime' ? ' and understand my membership renews until I cancel.' : '.'}
              </span>
            </label>
            <FieldMessage id={termsErrorId} message={feedback.error('terms')} />
          </div>

          <div className="flex flex-col gap-3">
            <FormError message={feedback.summary} />
            <Button type="submit" full disabled={loadingPayment} className="min-h-14 text-lg">
              {loadingPayment ? (
                <Spinner label="Processing your payment" className="[&_svg]:text-accent-fg" />
              ) : (
                <Lock aria-hidden className="size-5" />
              )}
              {submitLabel(
                selected?.trial ?? null,
                form.paymentType,
                selected ? formatMoney(centsOf(selected.price)) : '',
              )}
            </Button>
            <p className="flex items-center justify-center gap-1.5 text-sm text-muted">
              <Lock aria-hidden className="size-4" /> Secure checkout. We never store your card number.
            </p>
          </div>
        </form>
      </div>

      <aside className="flex flex-col gap-4 lg:sticky lg:top-24 lg:self-start" aria-label="Your order">
        <Summary plan={p} views={views} current={form.plan} />
        <Trust />
      </aside>
    </div>
  );
}

const submitLabel = (trial: string | null, type: PaymentType, price: string) =>
  type === 'paypal' ? 'Continue to PayPal' : trial ? `Start my ${trial}` : `Pay ${price} and join`;

function PaymentChoice({
  type,
  current,
  onChange,
  children,
}: {
  type: PaymentType;
  current: PaymentType;
  onChange: (t: PaymentType) => void;
  children: ReactNode;
}) {
  const selected = type === current;
  return (
    <label
      data-testid={`payment-${type}`}
      className={clsx(
        'flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 bg-surface px-3 text-base font-semibold focus-within:ring-2 focus-within:ring-focus',
        selected ? 'border-accent bg-accent-soft/40' : 'border-line hover:border-accent/60',
      )}
    >
      <input
        type="radio"
        name="payment_type"
        value={type}
        checked={selected}
        onChange={() => onChange(type)}
        className="sr-only"
      />
      {children}
    </label>
  );
}

function Summary({
  plan,
  views,
  current,
}: {
  plan: CheckoutPlan;
  views: ReturnType<typeof planViews>;
  current: MembershipPlan | '';
}) {
  const v = views.find((x) => x.plan === current);
  if (!v) return null;
  const trialDays = v.trial ? (v.plan === 'monthly' ? plan.monthly_trial_days : plan.yearly_trial_days) : 0;
  return (
    <section className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
      <h2 className="text-sm font-bold uppercase tracking-widest text-muted">Your order</h2>
      <div className="mt-3 flex items-baseline justify-between gap-3">
        <span className="text-lg font-bold">{v.title} membership</span>
        <span className="text-2xl font-extrabold tabular-nums">{formatMoney(centsOf(v.price))}</span>
      </div>
      <p className="mt-1 text-base text-muted">{v.note}</p>
      <dl className="mt-4 flex flex-col gap-2 border-t border-line pt-4 text-base">
        <div className="flex justify-between gap-3">
          <dt className="text-muted">Due today</dt>
          <dd className="font-bold tabular-nums">{trialDays > 0 ? formatMoney(0) : formatMoney(centsOf(v.price))}</dd>
        </div>
        {trialDays > 0 ? (
          <div className="flex justify-between gap-3">
            <dt className="text-muted">After your {trialDays}-day trial</dt>
            <dd className="font-semibold tabular-nums">
              {formatMoney(centsOf(v.price))}
              {v.per}
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Trust() {
  const items = [
    { icon: Sparkles, text: 'Every course, lesson and practice tool' },
    { icon: Headphones, text: 'Forums and live shows with our teachers' },
    { icon: CalendarCheck, text: 'Cancel or pause any time from Billing' },
    { icon: ShieldCheck, text: 'Payments handled by Stripe and PayPal' },
  ];
  return (
    <ul className="flex flex-col gap-3 rounded-2xl bg-surface-2 p-5 text-base">
      {items.map(({ icon: Icon, text }) => (
        <li key={text} className="flex items-start gap-3">
          <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" />
          {text}
        </li>
      ))}
    </ul>
  );
}

function AlreadySubscribed({ plan }: { plan: CheckoutPlan }) {
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <ShieldCheck aria-hidden className="mx-auto size-14 text-success" />
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{plan.heading}</h1>
      <p role="status" className="mt-4 rounded-xl bg-success-soft px-4 py-3 text-lg">
        {M.alreadySubscribed}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <a href="/account/billing" className={buttonClass()}>
          Manage billing
        </a>
        <a href="/dashboard" className={buttonClass('secondary')}>
          Go to your dashboard
        </a>
      </div>
    </div>
  );
}

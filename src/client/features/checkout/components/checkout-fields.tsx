import { useId, type ReactNode, type RefObject } from 'react';
import clsx from 'clsx';
import { CreditCard, ShieldCheck } from 'lucide-react';
import type { PaymentType } from '#shared/commerce';
import type { CheckoutForm } from '#shared/checkout';
import { Field, FieldMessage } from '#client/components/ui/field.tsx';
import { invalidProps } from '#client/components/ui/form-feedback.ts';
import { CardField, type CardHandle } from './card-field.tsx';

/** sets one value of the checkout form */
type SetField = <K extends keyof CheckoutForm>(key: K, value: CheckoutForm[K]) => void;
/** the message under a field, by its form name */
type ErrorOf = (field: string) => string | undefined;

/** Step 2 for a guest: the account to create (or a link to sign in); for a member, who is signed in. */
export function AccountFields({
  registered,
  form,
  set,
  error,
}: {
  registered: { email: string } | null;
  form: CheckoutForm;
  set: SetField;
  error: ErrorOf;
}) {
  if (registered) {
    return (
      <p className="flex items-center gap-2 rounded-xl bg-surface-2 px-4 py-3 text-base">
        <ShieldCheck aria-hidden className="size-5 shrink-0 text-success" />
        <span>
          Signed in as <strong className="break-all">{registered.email}</strong>
        </span>
      </p>
    );
  }
  return (
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
          error={error('name')}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          error={error('email')}
        />
        <Field
          label="Confirm email"
          name="email_confirmation"
          type="email"
          autoComplete="email"
          value={form.emailConfirmation}
          onChange={(e) => set('emailConfirmation', e.target.value)}
          error={error('email_confirmation')}
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
          error={error('password')}
        />
      </div>
    </fieldset>
  );
}

/** "Pay with": card or PayPal, PayPal's failure, and for a card its holder and the card itself. */
export function PaymentFields({
  step,
  form,
  set,
  error,
  paypalError,
  card,
  disabled,
}: {
  /** the step's number: 3 for a guest, 2 for a member */
  step: number;
  form: CheckoutForm;
  set: SetField;
  error: ErrorOf;
  paypalError: string | null;
  card: RefObject<CardHandle | null>;
  disabled: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-1 text-lg font-bold">{step}. Pay with</legend>
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
            error={error('card_holder')}
          />
          <CardField ref={card} error={error('card') ?? null} disabled={disabled} />
        </div>
      ) : (
        <p className="text-base text-muted">You will approve the payment at PayPal, then come straight back here.</p>
      )}
    </fieldset>
  );
}

/** The terms box; a renewing plan says it renews. */
export function TermsField({ form, set, error }: { form: CheckoutForm; set: SetField; error: ErrorOf }) {
  const termsErrorId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-base">
        <input
          type="checkbox"
          name="terms"
          className="mt-0.5 size-6 shrink-0 accent-[var(--accent)]"
          checked={form.terms}
          onChange={(e) => set('terms', e.target.checked)}
          {...invalidProps(error('terms'), termsErrorId)}
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
      <FieldMessage id={termsErrorId} message={error('terms')} />
    </div>
  );
}

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

import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CalendarCheck, Lock, MessageCircle, ShieldCheck, Video } from 'lucide-react';
import {
  checkoutFlags,
  checkoutFlagsOf,
  DEFAULT_MENTORSHIP_PRICING,
  MENTORSHIP_CHECKOUT_MESSAGES as CM,
  MENTORSHIP_CHECKOUT_OPTIONS,
  MENTORSHIP_MESSAGES as M,
  mentorshipOptions,
  onetimeOptionPrice,
  PAYPAL_BUTTONS_DELAY_MS,
  type MentorshipPricingSwitches,
  type MentorshipCheckoutOption,
} from '#shared/mentorship-checkout';
import { ApiError } from '#client/lib/api.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  createCheckout,
  navigate,
  newAttemptKey,
  paymentPlan,
  paypalSubscription,
  useMentorshipCheckout,
  useMentorshipCheckoutOptions,
} from '../api.ts';
import { AccountSteps, AlreadyEnrolled, SignedInAs, StepHeader, type Buyer } from './account-steps.tsx';
import { optionView, PaymentOptions } from './payment-options.tsx';

const NOTICES: Record<string, string> = { cancelled: CM.checkoutCancelled, failed: CM.paymentFailed };

/**
 * /mentorship/checkout (docs/product/mentorship.md): step 1 (sign in or create), create, step 2 (the payment
 * options of the query's flags). One-time options go to the card provider's hosted checkout;
 * '3'/'6' to a PayPal subscription, whose approval comes back here with `subscription_id`.
 */
export function MentorshipCheckout({ search }: { search: URLSearchParams }) {
  const query = search.toString();
  const signInTo = `/mentorship/checkout${query ? `?${query}` : ''}`;
  return (
    <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-10">
      <div className="min-w-0">
        <p className="text-sm font-bold uppercase tracking-widest text-accent-strong">Backbeat mentorship</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">Join the mentorship programme</h1>
        <p className="mt-2 max-w-2xl text-lg text-muted">
          One-to-one coaching with a Backbeat mentor: a practice plan built for you, feedback on your playing, and
          someone keeping you on track.
        </p>
        <div className="mt-8">
          <AccountSteps signInTo={signInTo}>
            {(buyer, moved) => <PaymentStep buyer={buyer} search={search} moved={moved} />}
          </AccountSteps>
        </div>
      </div>
      <aside aria-label="What you get" className="lg:sticky lg:top-24 lg:self-start">
        <Benefits />
      </aside>
    </div>
  );
}

function PaymentStep({ buyer, search, moved }: { buyer: Buyer; search: URLSearchParams; moved: boolean }) {
  const status = useMentorshipCheckout();
  const defaults = useMentorshipCheckoutOptions();
  const agreement = search.get('subscription_id');
  if (agreement) return <ConfirmPaymentPlan buyer={buyer} agreementId={agreement} />;
  if (status.data?.enrolled) return <AlreadyEnrolled />;
  // the options wait for what the admin set (a new academy's pricing when the call fails)
  if (defaults.isPending) return <Spinner />;
  return (
    <ChooseAndPay
      buyer={buyer}
      search={search}
      admin={defaults.data?.flags ?? DEFAULT_MENTORSHIP_PRICING}
      moved={moved}
    />
  );
}

function ChooseAndPay({
  buyer,
  search,
  admin,
  moved,
}: {
  buyer: Buyer;
  search: URLSearchParams;
  admin: MentorshipPricingSwitches;
  moved: boolean;
}) {
  const { shown, hidden } = useMemo(
    () => mentorshipOptions(checkoutFlags(admin, checkoutFlagsOf(search))),
    [search, admin],
  );
  const chosen = MENTORSHIP_CHECKOUT_OPTIONS.find((o) => o === search.get('plan'));
  // a hidden option is valid when the address chooses it
  const options = chosen && hidden.includes(chosen) ? [...shown, chosen] : shown;
  const [option, setOption] = useState<MentorshipCheckoutOption>(
    chosen && options.includes(chosen) ? chosen : options[0]!,
  );
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const attempt = useRef(newAttemptKey());
  const notice = NOTICES[search.get('checkout') ?? search.get('paypal') ?? ''] ?? null;
  const view = optionView(option);

  // PayPal buttons are initialised PAYPAL_BUTTONS_DELAY_MS after step 2 displays (docs/product/mentorship.md)
  const [paypalReady, setPaypalReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setPaypalReady(true), PAYPAL_BUTTONS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  async function run(pay: () => Promise<{ url: string }>, fallback: string) {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    setError(null);
    try {
      const { url } = await pay();
      navigate.to(url);
      // leaving: the buttons stay blocked until the page goes
    } catch (err) {
      setError(err instanceof ApiError && err.status < 500 && err.status !== 404 ? err.message : fallback);
      attempt.current = newAttemptKey();
      busy.current = false;
      setLoading(false);
    }
  }

  const payInFull = () =>
    run(
      () =>
        createCheckout({
          price: onetimeOptionPrice[option as keyof typeof onetimeOptionPrice],
          idempotency_key: attempt.current,
        }),
      CM.checkoutFailed,
    );
  const payWithPaypal = () =>
    run(
      () => paypalSubscription({ plan: option as '3' | '6', idempotency_key: attempt.current }),
      M.checkoutLinkFailed,
    );

  return (
    <section aria-label="Payment" aria-busy={loading} className="flex flex-col gap-6">
      <div>
        <StepHeader step={2} title="Choose how to pay" focus={moved} />
        <SignedInAs buyer={buyer} />
      </div>
      {notice ? (
        <p role="status" className="rounded-lg bg-surface-2 px-3 py-2 text-base font-medium">
          {notice}
        </p>
      ) : null}
      <PaymentOptions options={options} value={option} onChange={setOption} disabled={loading} />
      <FormError message={error} />
      {view.method === 'card' ? (
        <div className="flex flex-col gap-2">
          <Button full disabled={loading} className="min-h-14 text-lg" onClick={() => void payInFull()}>
            {loading ? (
              <Spinner label="Opening the secure checkout" className="[&_svg]:text-accent-fg" />
            ) : (
              <Lock aria-hidden className="size-5" />
            )}
            Pay {view.price} by card
          </Button>
          <p className="text-center text-sm text-muted">
            You pay on our payment provider&apos;s secure page, then come straight back.
          </p>
        </div>
      ) : (
        <PaypalButtons
          ready={paypalReady}
          loading={loading}
          label={view.per ?? view.price}
          onClick={() => void payWithPaypal()}
        />
      )}
    </section>
  );
}

/** The PayPal subscribe button (our own rendering: the approval happens at PayPal) */
function PaypalButtons({
  ready,
  loading,
  label,
  onClick,
}: {
  ready: boolean;
  loading: boolean;
  label: string;
  onClick: () => void;
}) {
  if (!ready) return <Spinner label="Loading PayPal" className="min-h-14" />;
  return (
    <div className="flex flex-col gap-2" data-testid="paypal-buttons">
      <button
        type="button"
        disabled={loading}
        onClick={onClick}
        className="inline-flex min-h-14 w-full items-center justify-center gap-2 rounded-xl bg-[#ffc439] px-5 text-lg font-bold text-[#111] transition-colors duration-150 hover:bg-[#f2ba36] disabled:cursor-not-allowed disabled:opacity-60"
      >
        {loading ? <Spinner label="Opening PayPal" /> : null}
        <span aria-hidden className="italic text-[#003087]">
          Pay<span className="text-[#0070ba]">Pal</span>
        </span>
        <span>Subscribe: {label}</span>
      </button>
      <p className="text-center text-sm text-muted">
        You approve the monthly payments at PayPal. They stop by themselves after the last one.
      </p>
    </div>
  );
}

/** Back from PayPal: POST /mentorship/payment-plan, then /mentorship. */
function ConfirmPaymentPlan({ buyer, agreementId }: { buyer: Buyer; agreementId: string }) {
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(-1);
  useEffect(() => {
    if (started.current === attempt) return;
    started.current = attempt;
    paymentPlan({
      contact_name: buyer.name,
      contact_email: buyer.email,
      name: buyer.name,
      email: buyer.email,
      agreement_id: agreementId,
    })
      .then(({ url }) => navigate.to(url))
      .catch((err: unknown) =>
        setError(
          err instanceof ApiError && err.status === 409 && err.message === M.alreadyEnrolled
            ? err.message
            : M.instalmentPlanFailed,
        ),
      );
  }, [attempt, agreementId, buyer]);
  return (
    <section className="flex flex-col gap-5">
      <StepHeader step={2} title="Confirming your payment plan" />
      {error ? (
        <>
          <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-base font-medium text-danger">
            {error}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button
              onClick={() => {
                setError(null);
                setAttempt((a) => a + 1);
              }}
            >
              Try again
            </Button>
            <a href="/mentorship/checkout" className={buttonClass('secondary')}>
              Back to the payment options
            </a>
          </div>
        </>
      ) : (
        <Spinner label="Confirming your PayPal payment plan" className="py-10" />
      )}
    </section>
  );
}

function Benefits() {
  const items: { icon: typeof Video; text: ReactNode }[] = [
    { icon: CalendarCheck, text: 'A three-phase practice plan your mentor builds and adjusts every week' },
    { icon: Video, text: 'Send practice videos and get written feedback' },
    { icon: MessageCircle, text: 'Accountability links and check-ins to keep you playing' },
    { icon: ShieldCheck, text: 'Payments handled by Stripe and PayPal; we never see your card number' },
  ];
  return (
    <ul className="flex flex-col gap-3 rounded-2xl bg-surface-2 p-5 text-base">
      <li className="text-sm font-bold uppercase tracking-widest text-muted">What you get</li>
      {items.map(({ icon: Icon, text }, i) => (
        <li key={i} className="flex items-start gap-3">
          <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" />
          {text}
        </li>
      ))}
    </ul>
  );
}

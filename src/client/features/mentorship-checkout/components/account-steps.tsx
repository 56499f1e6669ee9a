import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import clsx from 'clsx';
import { LogIn, UserPlus } from 'lucide-react';
import { MENTORSHIP_MESSAGES as M } from '#shared/mentorship-checkout';
import { pageConfig } from '#client/lib/page-config.ts';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { logout, navigate } from '../api.ts';

export interface Buyer {
  name: string;
  email: string;
}

/** the account the page already knows (page config), or null for a visitor */
export function knownBuyer(): Buyer | null {
  const c = pageConfig();
  return c.authId !== null ? { name: c.authName ?? '', email: c.authEmail ?? '' } : null;
}

/** Where "Log out" inside a checkout returns. */
export const LOGOUT_TO = '/login?to=/mentorship/account';

/**
 * "Step 1 of 2 · Your account". A step the member moved to (`focus`) takes focus on its heading, since
 * the control that led there has left the page.
 */
export function StepHeader({ step, title, focus = false }: { step: 1 | 2; title: string; focus?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <div className="mb-5 flex flex-col gap-3">
      <ol className="flex items-center gap-2 text-sm font-semibold" aria-label="Checkout steps">
        {(['Your account', 'Payment'] as const).map((label, i) => (
          <li key={label} className="flex items-center gap-2" aria-current={i + 1 === step ? 'step' : undefined}>
            <span
              className={clsx(
                'grid size-7 place-items-center rounded-full text-sm',
                i + 1 <= step ? 'bg-accent text-accent-fg' : 'bg-surface-2 text-muted',
              )}
            >
              {i + 1}
            </span>
            <span className={i + 1 === step ? 'text-fg' : 'text-muted'}>{label}</span>
            {i === 0 ? <span aria-hidden className="mx-1 h-px w-6 bg-line" /> : null}
          </li>
        ))}
      </ol>
      <h2 ref={heading} tabIndex={focus ? -1 : undefined} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
    </div>
  );
}

/** The heading of step 1's "create" form (create-account.tsx) and of its loading state. */
export const CREATE_STEP_TITLE = 'Create your account';

const CreateAccount = preloadableLazy(() => import('./create-account.tsx').then((m) => ({ default: m.CreateAccount })));
const preloadCreateAccount = () => void CreateAccount.preload().catch(() => undefined);
/** The create step while its form's code arrives: its heading (which takes focus) and a spinner. */
const CREATE_LOADING = (
  <div>
    <StepHeader step={1} title={CREATE_STEP_TITLE} focus />
    <Spinner label="Loading the form" className="[&_svg]:size-8" />
  </div>
);

/**
 * The account steps of a mentorship checkout (docs/product/mentorship.md): step 1 (sign in or create), the
 * 'create' step (registration with mentorship_signup), then step 2 (the caller's payment, with the
 * buyer). Starts at step 2 when the page already knows the buyer. `signInTo` is where /login
 * returns.
 */
export function AccountSteps({
  signInTo,
  children,
}: {
  signInTo: string;
  /** `moved`: the member came to step 2 from step 1 on this page (its heading takes focus) */
  children: (buyer: Buyer, moved: boolean) => ReactNode;
}) {
  const [buyer, setBuyer] = useState<Buyer | null>(knownBuyer);
  const [step, setStep] = useState<'start' | 'create'>('start');
  // the step the member moved to takes focus; the page's first step does not
  const [moved, setMoved] = useState(false);
  const go = (next: typeof step) => {
    setMoved(true);
    setStep(next);
  };
  if (buyer) return <>{children(buyer, moved)}</>;
  if (step === 'create')
    return (
      <Suspense fallback={CREATE_LOADING}>
        <CreateAccount
          onBack={() => go('start')}
          onCreated={(b) => {
            setMoved(true);
            setBuyer(b);
          }}
        />
      </Suspense>
    );
  return (
    <section aria-labelledby="account-step">
      <StepHeader step={1} title="Your account" focus={moved} />
      <p id="account-step" className="mb-5 text-lg text-muted">
        Sign in if you already study with Backbeat, or create your free account. Then choose how to pay.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <a
          href={`/login?to=${encodeURIComponent(signInTo)}`}
          data-testid="account-sign-in"
          className={clsx(buttonClass('secondary', true), 'min-h-14 text-lg')}
        >
          <LogIn aria-hidden className="size-5" /> Sign in
        </a>
        <Button
          full
          className="min-h-14 text-lg"
          onPointerEnter={preloadCreateAccount}
          onFocus={preloadCreateAccount}
          onClick={() => go('create')}
        >
          <UserPlus aria-hidden className="size-5" /> Create account
        </Button>
      </div>
    </section>
  );
}

/** "Signed in as … · Log out": the log-out returns to /login?to=/mentorship/account */
export function SignedInAs({ buyer }: { buyer: Buyer }) {
  const [leaving, setLeaving] = useState(false);
  async function out() {
    setLeaving(true);
    try {
      await logout();
    } catch {
      // signed out or not: the sign-in page is where this goes
    }
    navigate.to(LOGOUT_TO);
  }
  return (
    <p className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-xl bg-surface-2 px-4 py-3 text-base">
      <span className="min-w-0">
        Signed in as <strong className="break-all">{buyer.email || buyer.name}</strong>
      </span>
      <a
        href={LOGOUT_TO}
        className="font-semibold text-accent-strong underline-offset-2 hover:underline"
        onClick={(e) => {
          e.preventDefault();
          if (!leaving) void out();
        }}
      >
        Log out
      </a>
    </p>
  );
}

/** Step 2 for a buyer who is already a mentorship student: nothing to pay. */
export function AlreadyEnrolled() {
  return (
    <section className="flex flex-col items-start gap-4">
      <StepHeader step={2} title="You're already in" />
      <p role="status" className="rounded-xl bg-success-soft px-4 py-3 text-lg">
        {M.alreadyEnrolled}
      </p>
      <a href="/mentorship" className={buttonClass()}>
        Go to the mentorship area
      </a>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, ShieldCheck } from 'lucide-react';
import { SANDBOX_CARDS } from '#shared/commerce';
import { Field } from '#client/components/ui/field.tsx';
import { siteAddress } from '#shared/redirect';
import { ApiError, get } from '#client/lib/api.ts';
import { navigate } from '#client/lib/browser.ts';
import { Button } from '#client/components/ui/button.tsx';
import { FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { PageTitle } from './common.tsx';
import { formatMoney } from '#shared/money';

/**
 * The sandbox payment provider's own pages: the PayPal-like approval page
 * (/sandbox/paypal/approve/:ref), the card authentication page (/sandbox/authenticate/:paymentMethod) and
 * the hosted card checkout (/sandbox/checkout/:ref: Stripe Checkout's part).
 * They talk to the sandbox's endpoints only (no CSRF token: like a provider's site, they are not ours).
 */
export function SandboxPage() {
  const rest = useParams()['*'] ?? '';
  const approve = /^paypal\/approve\/([\w-]+)$/.exec(rest);
  if (approve) return <PaypalApproval reference={approve[1]!} />;
  const hosted = /^checkout\/([\w-]+)$/.exec(rest);
  if (hosted) return <HostedCheckout reference={hosted[1]!} />;
  const auth = /^authenticate\/([\w-]+)$/.exec(rest);
  if (auth) return <CardAuthentication paymentMethod={auth[1]!} />;
  return <PageTitle title="Sandbox" subtitle="There is nothing to see at this address." />;
}

async function sandboxPost(url: string, body: unknown = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as { url?: string; message?: string; error?: { message?: string } };
  if (!res.ok)
    throw new Error(data.error?.message ?? data.message ?? 'The sandbox could not do that. Please try again.');
  return data;
}

interface ApprovalInfo {
  ref: string;
  kind: 'order' | 'subscription';
  amountCents: number;
  description: string;
  interval: 'month' | 'year' | null;
  trialDays: number;
  status: 'pending' | 'approved' | 'canceled';
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md">
      <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-sm">
        <div className="flex items-center justify-between bg-[#003087] px-6 py-4 text-white">
          <span className="text-2xl font-extrabold italic tracking-tight">
            Pay<span className="text-[#0070ba]">Pal</span>
          </span>
          <span className="rounded-full bg-white/15 px-3 py-1 text-xs font-semibold uppercase tracking-wide">
            Sandbox
          </span>
        </div>
        <div className="p-6">{children}</div>
      </div>
    </div>
  );
}

function PaypalApproval({ reference }: { reference: string }) {
  const info = useQuery({
    queryKey: ['sandbox', 'paypal', reference],
    queryFn: () => get<ApprovalInfo>(`/sandbox/paypal/orders/${encodeURIComponent(reference)}`),
    retry: false,
  });
  const [busy, setBusy] = useState<'approve' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(action: 'approve' | 'cancel') {
    setBusy(action);
    setError(null);
    try {
      const { url } = await sandboxPost(`/sandbox/paypal/${action}/${encodeURIComponent(reference)}`);
      navigate.within(url, '/');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(null);
    }
  }

  if (info.isPending) return <Spinner />;
  if (info.isError || !info.data)
    return (
      <Shell>
        <h1 className="text-2xl font-bold">Payment not found</h1>
        <p className="mt-2 text-muted">
          {info.error instanceof ApiError && info.error.status === 404
            ? 'This PayPal payment no longer exists.'
            : 'Please try again.'}
        </p>
      </Shell>
    );
  const d = info.data;
  const every = d.interval === 'year' ? 'year' : 'month';
  return (
    <Shell>
      <h1 className="text-2xl font-bold tracking-tight">
        {d.kind === 'subscription' ? 'Approve your subscription' : 'Approve your payment'}
      </h1>
      <p className="mt-1 text-muted">Signed in as buyer@sandbox.test</p>
      <dl className="my-6 rounded-xl border border-line p-4">
        <dt className="text-sm text-muted">{d.description || 'Backbeat'}</dt>
        <dd className="mt-1 text-3xl font-extrabold" data-testid="sandbox-amount">
          {formatMoney(d.amountCents)}
          {d.kind === 'subscription' ? <span className="text-base font-semibold text-muted"> / {every}</span> : null}
        </dd>
        {d.kind === 'subscription' && d.trialDays > 0 ? (
          <dd className="mt-1 text-sm text-muted">
            Free for {d.trialDays} days, then {formatMoney(d.amountCents)} every {every}.
          </dd>
        ) : null}
      </dl>
      {d.status !== 'pending' ? (
        <p className="mb-4 font-medium">
          {d.status === 'approved' ? 'This payment was approved already.' : 'This payment was cancelled.'}
        </p>
      ) : null}
      <div className="flex flex-col gap-3">
        <Button full disabled={busy !== null || d.status === 'canceled'} onClick={() => void act('approve')}>
          {busy === 'approve' ? 'Approving…' : 'Approve payment'}
        </Button>
        <Button full variant="secondary" disabled={busy !== null} onClick={() => void act('cancel')}>
          {busy === 'cancel' ? 'Returning…' : 'Cancel and return'}
        </Button>
      </div>
      <div className="mt-4">
        <FormError message={error} />
      </div>
    </Shell>
  );
}

/**
 * A stand-alone authentication page (the card form opens its own dialog; this page serves a popup
 * or a redirect: it tells window.opener `{type:'sandbox-authentication', paymentMethod, outcome}`
 * and closes, or goes to `?return=` with `outcome=` added).
 */
function CardAuthentication({ paymentMethod }: { paymentMethod: string }) {
  const [params] = useSearchParams();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(outcome: 'complete' | 'fail') {
    setBusy(true);
    setError(null);
    let result: 'complete' | 'fail' = outcome;
    try {
      await sandboxPost(`/sandbox/authenticate/${encodeURIComponent(paymentMethod)}`, { outcome });
    } catch (err) {
      result = 'fail';
      if (outcome === 'complete') setError(err instanceof Error ? err.message : String(err));
    }
    // like the provider's page it stands for, it only ever sends the buyer back to this site
    const back = siteAddress(params.get('return'), window.location.origin);
    if (window.opener) {
      (window.opener as Window).postMessage(
        { type: 'sandbox-authentication', paymentMethod, outcome: result },
        window.location.origin,
      );
      window.close();
    } else if (back !== null) {
      navigate.to(`${back}${back.includes('?') ? '&' : '?'}outcome=${result}`);
      return;
    }
    setDone(
      result === 'complete'
        ? 'Authentication complete. You can close this page.'
        : 'Authentication failed. You can close this page.',
    );
    setBusy(false);
  }

  return (
    <div className="mx-auto w-full max-w-md rounded-2xl border border-line bg-surface p-6 shadow-sm">
      <div className="mb-4 flex items-center gap-3">
        <ShieldCheck aria-hidden className="size-8 text-accent" />
        <h1 className="text-2xl font-bold">Sandbox 3-D Secure</h1>
      </div>
      <p className="mb-6 text-muted">
        Your bank asks you to confirm this card. In the sandbox you choose what the bank answers.
      </p>
      {done ? (
        <p role="status" className="font-medium">
          {done}
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <Button full disabled={busy} onClick={() => void act('complete')}>
            Complete authentication
          </Button>
          <Button full variant="secondary" disabled={busy} onClick={() => void act('fail')}>
            Fail authentication
          </Button>
        </div>
      )}
      <div className="mt-4">
        <FormError message={error} />
      </div>
    </div>
  );
}

interface HostedInfo {
  ref: string;
  amountCents: number;
  description: string;
  methods: 'card' | 'financing';
  status: 'open' | 'complete' | 'canceled';
}

const TEST_CARDS = [
  { number: SANDBOX_CARDS.succeeds, what: 'succeeds' },
  { number: SANDBOX_CARDS.declined, what: 'is declined' },
  { number: SANDBOX_CARDS.needsAuthentication, what: 'asks for authentication' },
  { number: SANDBOX_CARDS.failsLater, what: 'attaches, then is declined' },
];
const groups = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');
const onlyDigits = (v: string) => v.replace(/\D/g, '');

/**
 * The sandbox's hosted checkout (Stripe Checkout's part): the amount, the test cards, the
 * card fields and, for a financing checkout, "Pay over time". Paying goes to the shop's success
 * address; "Back" cancels to its cancel address.
 */
function HostedCheckout({ reference }: { reference: string }) {
  const info = useQuery({
    queryKey: ['sandbox', 'checkout', reference],
    queryFn: () => get<HostedInfo>(`/sandbox/checkout-sessions/${encodeURIComponent(reference)}`),
    retry: false,
  });
  const [method, setMethod] = useState<'card' | 'financing'>('card');
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '', name: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState(false);

  async function pay(authenticated = false) {
    setBusy(true);
    setError(null);
    const e = onlyDigits(card.expiry);
    const body =
      method === 'financing'
        ? { method }
        : {
            method,
            number: onlyDigits(card.number),
            exp_month: Number(e.slice(0, 2)),
            exp_year: 2000 + Number(e.slice(2, 4)),
            cvc: onlyDigits(card.cvc),
            name: card.name,
            ...(authenticated ? { authenticated: true } : {}),
          };
    try {
      const r = (await sandboxPost(`/sandbox/checkout/${encodeURIComponent(reference)}/pay`, body)) as {
        url?: string;
        requires_action?: boolean;
      };
      if (r.requires_action) {
        setChallenge(true);
        setBusy(false);
        return;
      }
      navigate.within(r.url, '/');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    try {
      const { url } = await sandboxPost(`/sandbox/checkout/${encodeURIComponent(reference)}/cancel`);
      navigate.within(url, '/');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy) void pay();
  }

  if (info.isPending) return <Spinner />;
  if (info.isError || !info.data)
    return (
      <PageTitle
        title="Checkout not found"
        subtitle={
          info.error instanceof ApiError && info.error.status === 404
            ? 'This checkout no longer exists.'
            : 'Please try again.'
        }
      />
    );
  const d = info.data;
  return (
    <div className="mx-auto grid w-full max-w-4xl overflow-hidden rounded-2xl border border-line bg-surface shadow-sm md:grid-cols-2">
      <section className="flex flex-col gap-4 bg-surface-2 p-6 sm:p-8">
        <span className="w-fit rounded-full bg-accent-soft px-3 py-1 text-xs font-bold uppercase tracking-wide text-accent-strong">
          Sandbox checkout
        </span>
        <p className="text-base text-muted">{d.description}</p>
        <p className="text-4xl font-extrabold tabular-nums" data-testid="sandbox-amount">
          {formatMoney(d.amountCents)}
        </p>
        <div className="mt-auto rounded-xl border border-line bg-surface p-4 text-sm">
          <p className="mb-2 font-semibold">Test cards (any future expiry, any CVC)</p>
          <ul className="flex flex-col gap-1">
            {TEST_CARDS.map((c) => (
              <li key={c.number} className="flex flex-wrap justify-between gap-x-3">
                <span className="whitespace-nowrap font-mono tabular-nums">{groups(c.number)}</span>
                <span className="text-muted">{c.what}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <form className="flex flex-col gap-4 p-6 sm:p-8" onSubmit={submit} aria-busy={busy} noValidate>
        <h1 className="text-2xl font-bold tracking-tight">
          {d.status === 'open' ? 'Pay' : d.status === 'complete' ? 'Paid' : 'Cancelled'}
        </h1>
        {d.status !== 'open' ? (
          <p className="font-medium">
            {d.status === 'complete' ? 'This checkout was paid already.' : 'This checkout was cancelled.'}
          </p>
        ) : null}
        {d.methods === 'financing' ? (
          <div role="radiogroup" aria-label="Payment method" className="grid grid-cols-2 gap-3">
            {(
              [
                ['card', 'Card'],
                ['financing', 'Pay over time'],
              ] as const
            ).map(([value, label]) => (
              <label
                key={value}
                className={`flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border-2 px-3 font-semibold ${method === value ? 'border-accent bg-accent-soft/40' : 'border-line'}`}
              >
                <input
                  type="radio"
                  name="method"
                  value={value}
                  checked={method === value}
                  onChange={() => setMethod(value)}
                  className="sr-only"
                />
                {label}
              </label>
            ))}
          </div>
        ) : null}
        {method === 'card' ? (
          <fieldset className="flex flex-col gap-3" disabled={busy}>
            <Field
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              value={card.number}
              onChange={(e) => setCard({ ...card, number: groups(onlyDigits(e.target.value).slice(0, 19)) })}
            />
            <div className="grid grid-cols-2 gap-3">
              <Field
                label="Expiry (MM / YY)"
                inputMode="numeric"
                autoComplete="cc-exp"
                placeholder="MM / YY"
                value={card.expiry}
                onChange={(e) => setCard({ ...card, expiry: e.target.value.slice(0, 7) })}
              />
              <Field
                label="CVC"
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder="123"
                value={card.cvc}
                onChange={(e) => setCard({ ...card, cvc: onlyDigits(e.target.value).slice(0, 4) })}
              />
            </div>
            <Field
              label="Name on card"
              autoComplete="cc-name"
              value={card.name}
              onChange={(e) => setCard({ ...card, name: e.target.value })}
            />
          </fieldset>
        ) : (
          <p className="rounded-xl bg-surface-2 p-4 text-base">
            Split {formatMoney(d.amountCents)} into monthly payments with the sandbox&apos;s financing partner. Nothing
            is really charged.
          </p>
        )}
        {challenge ? (
          <div
            role="dialog"
            aria-label="Sandbox 3-D Secure"
            className="flex flex-col gap-3 rounded-xl border border-line p-4"
          >
            <p className="flex items-center gap-2 font-semibold">
              <ShieldCheck aria-hidden className="size-5 text-accent" /> Your bank asks you to confirm this payment.
            </p>
            <Button full disabled={busy} onClick={() => (setChallenge(false), void pay(true))}>
              Complete authentication
            </Button>
            <Button
              full
              variant="secondary"
              disabled={busy}
              onClick={() => (
                setChallenge(false),
                setError(
                  'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
                )
              )}
            >
              Fail authentication
            </Button>
          </div>
        ) : null}
        <FormError message={error} />
        <Button type="submit" full disabled={busy || d.status !== 'open'} className="min-h-14 text-lg">
          <CreditCard aria-hidden className="size-5" />
          {busy ? 'Processing…' : `Pay ${formatMoney(d.amountCents)}`}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={() => void cancel()}>
          Back to the shop
        </Button>
      </form>
    </div>
  );
}

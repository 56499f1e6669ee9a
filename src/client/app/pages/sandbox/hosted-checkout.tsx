import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, ShieldCheck } from 'lucide-react';
import { SANDBOX_CARDS } from '#shared/commerce';
import { formatMoney } from '#shared/money';
import type { SandboxHostedCheckout } from '#shared/payments-sandbox';
import { ApiError, get } from '#client/lib/api.ts';
import { navigate } from '#client/lib/browser.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FormError } from '#client/components/ui/field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { PageTitle } from '../common.tsx';
import { sandboxPost } from './sandbox-post.ts';

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
export function HostedCheckout({ reference }: { reference: string }) {
  const info = useQuery({
    queryKey: ['sandbox', 'checkout', reference],
    queryFn: () => get<SandboxHostedCheckout>(`/sandbox/checkout-sessions/${encodeURIComponent(reference)}`),
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

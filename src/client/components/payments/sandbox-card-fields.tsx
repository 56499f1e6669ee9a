/**
 * The sandbox's card fields (card-form.tsx's CardForm on a server whose card provider is the sandbox):
 * number, expiry and CVC, confirmed at POST /sandbox/setup-intents/confirm; a card that needs
 * authentication (4000 0025 0000 3155) opens the sandbox's "3-D Secure" dialog right here. A real
 * academy, on Stripe, never loads this module (./sandbox-card.ts).
 */
import { forwardRef, lazy, Suspense, useId, useImperativeHandle, useRef, useState } from 'react';
import { inputClass } from '#client/components/ui/field.tsx';
import type { CardFormHandle, CardFormProps, ConfirmResult } from './card-form.tsx';

// the sandbox's 3-D Secure dialog (Radix Dialog) loads when a card asks for it, not with the page
const CardChallenge = lazy(() => import('./card-challenge.tsx').then((m) => ({ default: m.CardChallenge })));

const digits = (v: string) => v.replace(/\D/g, '');
const formatNumber = (v: string) =>
  digits(v)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
const formatExpiry = (v: string) => {
  const d = digits(v).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
};

async function sandboxPost(url: string, body: unknown): Promise<Record<string, unknown>> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const err = data.error as { message?: string } | undefined;
      return {
        error:
          err?.message ?? (data.message as string | undefined) ?? 'Your card could not be checked. Please try again.',
      };
    }
    return data;
  } catch {
    return { error: 'We could not reach the payment provider. Please try again.' };
  }
}

export const SandboxCardFields = forwardRef<CardFormHandle, CardFormProps>(function SandboxCardFields(
  { disabled, label = 'Card details', errorId },
  ref,
) {
  const invalid = errorId ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  const id = useId();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [challenge, setChallenge] = useState<{
    url: string;
    resolve: (r: ConfirmResult) => void;
    paymentMethod: string;
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const values = useRef({ number, expiry, cvc });
  values.current = { number, expiry, cvc };

  useImperativeHandle(ref, () => ({
    async confirmSetup(clientSecret, { name }) {
      const v = values.current;
      const n = digits(v.number);
      const e = digits(v.expiry);
      if (n.length < 12) return { error: 'Your card number is incomplete.' };
      if (e.length !== 4) return { error: "Your card's expiration date is incomplete." };
      if (digits(v.cvc).length < 3) return { error: "Your card's security code is incomplete." };
      const r = await sandboxPost('/sandbox/setup-intents/confirm', {
        client_secret: clientSecret,
        number: n,
        exp_month: Number(e.slice(0, 2)),
        exp_year: 2000 + Number(e.slice(2)),
        cvc: digits(v.cvc),
        name,
      });
      if (typeof r.error === 'string') return { error: r.error };
      const pm = String(r.payment_method ?? '');
      if (r.requires_action)
        return new Promise<ConfirmResult>((resolve) =>
          setChallenge({ url: String(r.url), resolve, paymentMethod: pm }),
        );
      return { paymentMethod: pm };
    },
  }));

  async function authenticate(outcome: 'complete' | 'fail') {
    if (!challenge) return;
    setBusy(true);
    const r = await sandboxPost(`/sandbox/authenticate/${encodeURIComponent(challenge.paymentMethod)}`, { outcome });
    setBusy(false);
    challenge.resolve(typeof r.error === 'string' ? { error: r.error } : { paymentMethod: challenge.paymentMethod });
    setChallenge(null);
  }

  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled} data-testid="card-form">
      <legend className="mb-1.5 text-sm font-semibold">{label}</legend>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-number`} className="text-sm text-muted">
          Card number
        </label>
        <input
          id={`${id}-number`}
          name="cardnumber"
          className={inputClass}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          {...invalid}
          value={number}
          onChange={(e) => setNumber(formatNumber(e.target.value))}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-exp`} className="text-sm text-muted">
            Expiry (MM / YY)
          </label>
          <input
            id={`${id}-exp`}
            name="exp-date"
            className={inputClass}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            {...invalid}
            value={expiry}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-cvc`} className="text-sm text-muted">
            CVC
          </label>
          <input
            id={`${id}-cvc`}
            name="cvc"
            className={inputClass}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            {...invalid}
            value={cvc}
            onChange={(e) => setCvc(digits(e.target.value).slice(0, 4))}
          />
        </div>
      </div>
      <p className="text-xs text-muted">
        Sandbox payments: no real card is charged. Try 4242 4242 4242 4242 with any future date and CVC.
      </p>

      {challenge ? (
        <Suspense fallback={null}>
          <CardChallenge busy={busy} authenticate={(outcome) => void authenticate(outcome)} />
        </Suspense>
      ) : null}
    </fieldset>
  );
});

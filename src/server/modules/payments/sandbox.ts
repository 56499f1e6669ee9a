import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from '#shared/zod';
import type { Database } from '#server/db/client';
import { sandboxObjects } from '#server/db/schema/index';
import { COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { nextRetryAt } from '#shared/dunning';
import {
  ProviderError,
  type Approval,
  type ChargeResult,
  type Interval,
  type PaymentProvider,
  type ProviderEvent,
  type RetryResult,
  type SubscriptionState,
} from './provider.ts';
import { eventJson, field, readEvent } from './webhook-content.ts';

/**
 * The built-in sandbox provider: plays Stripe and PayPal with no keys and no network, its
 * state in `sandbox_objects`. Test cards: SANDBOX_CARDS (4242… succeeds, …0002 is declined at
 * confirmation, …3155 needs authentication once, …0341 attaches but every later charge fails).
 *
 * Failed renewals: the sandbox retries on the schedule of DUNNING_RETRY_DAYS (days after the first
 * failure, in clock time) and cancels the subscription when the last retry fails, as Stripe does
 * with its retry settings. A PayPal subscription's funding fails when its `fundingFails` is set
 * (tests); approving it again on the approval page fixes it and collects what is due.
 *
 * Time: the sandbox has its own clock (real time + an offset the tests move with
 * POST /sandbox/clock/advance). It keeps its objects in clock time and reports times in real time
 * (clock time − offset), so "31 days later" looks to the app exactly like 31 days having passed.
 *
 * Events: every state change emits a ProviderEvent as a signed webhook (`Sandbox-Signature:
 * t=…,v1=HMAC-SHA256(secret, "t.body")`) handed to `deliver` (the app's own webhook handler).
 */

const DAY = 24 * 60 * 60 * 1000;
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
const PAYPAL_BUYER = 'buyer@sandbox.test';

type Obj = Record<string, unknown>;
interface PaymentMethodData extends Obj {
  brand: string;
  last4: string;
  name: string;
  usable: boolean;
  failsLater: boolean;
  setupIntent: string;
}
interface SubscriptionData extends Obj {
  kind: 'card' | 'paypal';
  status: SubscriptionState['status'];
  interval: Interval;
  priceCents: number;
  /** clock ms */
  periodStart: number;
  periodEnd: number;
  trialEndsAt: number | null;
  trialDays: number;
  cancelAtPeriodEnd: boolean;
  paymentMethod: string | null;
  label: string;
  metadata: Record<string, string>;
  pauseFeeCents: number;
  discount: { percentOff?: number; amountOffCents?: number; cyclesLeft: number } | null;
  retryAt: number | null;
  /** dunning: the first failure of the open invoice (clock ms), the automatic retries made, the invoice still due */
  failedAt?: number | null;
  retriesDone?: number;
  openInvoice?: { ref: string; amountCents: number; periodStart: number; periodEnd: number } | null;
  /** PayPal: the buyer's funding source declines (set by tests) */
  fundingFails?: boolean;
  description: string;
  returnUrl?: string;
  cancelUrl?: string;
  /**
   * The provider's own order of its changes: `version` counts every change of this subscription,
   * `changedAt` is when the last one happened (real ms, like every time the sandbox reports). Its
   * states and events carry both (SubscriptionState.asOf), so the app can tell an older one.
   */
  version?: number;
  changedAt?: number;
  /** the charge of the first payment made when the subscription started (none after a trial: its invoice has it) */
  firstCharge?: string | null;
}
interface PaypalOrderData extends Obj {
  amountCents: number;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  status: 'CREATED' | 'APPROVED' | 'CANCELED' | 'COMPLETED';
  metadata: Record<string, string>;
  charge: string | null;
}

/** a hosted checkout page: the buyer pays on /sandbox/checkout/:ref */
interface HostedCheckoutData extends Obj {
  amountCents: number;
  description: string;
  successUrl: string;
  cancelUrl: string;
  methods: 'card' | 'financing';
  metadata: Record<string, string>;
  status: 'open' | 'complete' | 'canceled';
  charge: string | null;
  label: string;
}
const FINANCING_LABEL = 'Pay over time (sandbox financing)';

export type Deliver = (rawBody: Buffer, headers: Record<string, string>) => Promise<void>;

const rid = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString('hex')}`;
const luhn = (digits: string) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};
const brandOf = (n: string) =>
  n.startsWith('4') ? 'Visa' : /^5[1-5]/.test(n) ? 'Mastercard' : /^3[47]/.test(n) ? 'American Express' : 'Card';

export function signSandboxPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The same check Stripe makes: a fresh timestamp (5 minutes) and a matching v1 signature. */
export function verifySandboxSignature(
  secret: string,
  rawBody: Buffer,
  signature: string | undefined,
  toleranceSeconds = 300,
) {
  const parts = new Map<string, string[]>();
  for (const item of (signature ?? '').split(',')) {
    const [k, v] = item.split('=', 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isFinite(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds)
    throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
  const expected = Buffer.from(
    createHmac('sha256', secret)
      .update(`${t}.${rawBody.toString('utf8')}`)
      .digest('hex'),
  );
  const ok = (parts.get('v1') ?? []).some((v) => {
    const got = Buffer.from(v);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) throw new ProviderError('invalid_signature', 'Invalid webhook signature.');
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;

export function createSandboxProvider(deps: { db: Database; webhookSecret: string }) {
  const { db } = deps;
  let deliver: Deliver | null = null;

  async function get<T extends Obj>(id: string, kind?: string): Promise<T | null> {
    const [row] = await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)).limit(1);
    if (!row || (kind && row.kind !== kind)) return null;
    return row.data as T;
  }
  async function must<T extends Obj>(id: string, kind: string): Promise<T> {
    const obj = await get<T>(id, kind);
    if (!obj) throw new ProviderError('not_found', `No such ${kind.replace('_', ' ')}: ${id}`);
    return obj;
  }
  async function put(id: string, kind: string, data: Obj) {
    await db
      .insert(sandboxObjects)
      .values({ id, kind, data })
      .onConflictDoUpdate({ target: sandboxObjects.id, set: { data, updatedAt: sql`now()` } });
  }
  /**
   * One object per idempotency key: a retried call answers the object the first one made. The key
   * is claimed before anything is created, so two concurrent calls with the same key (a double
   * click reaching two processes) make one object: the second waits for the first's answer.
   */
  async function once(key: string, create: () => Promise<string>): Promise<string> {
    const id = `idem:${key}`;
    const [claimed] = await db
      .insert(sandboxObjects)
      .values({ id, kind: 'idempotency', data: { ref: null } })
      .onConflictDoNothing()
      .returning();
    if (claimed) {
      try {
        const ref = await create();
        await db
          .update(sandboxObjects)
          .set({ data: { ref }, updatedAt: sql`now()` })
          .where(eq(sandboxObjects.id, id));
        return ref;
      } catch (err) {
        // nothing was made: the key is free for a retry
        await db.delete(sandboxObjects).where(eq(sandboxObjects.id, id));
        throw err;
      }
    }
    for (let i = 0; i < 200; i++) {
      const row = await get<{ ref: string | null }>(id, 'idempotency');
      if (!row) return once(key, create);
      if (row.ref) return row.ref;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new ProviderError('provider_error', 'The payment provider is busy with the same request. Please try again.');
  }

  async function offset(): Promise<number> {
    return (await get<{ offsetMs: number }>('clock', 'clock'))?.offsetMs ?? 0;
  }
  async function clockNow() {
    return Date.now() + (await offset());
  }

  /** a subscription changed: its next version, stamped with the time of the change */
  async function putSubscription(ref: string, s: SubscriptionData) {
    s.version = (s.version ?? 0) + 1;
    s.changedAt = Date.now();
    await put(ref, 'subscription', s);
  }

  /** `created` (seconds, as Stripe's events) is the time of the event unless the event says otherwise */
  async function emit(event: Omit<ProviderEvent, 'id'> & Obj) {
    const id = rid('evt_');
    const body = JSON.stringify({ created: Math.floor(Date.now() / 1000), ...event, id });
    await put(id, 'event', { body });
    if (!deliver) return;
    const signature = signSandboxPayload(deps.webhookSecret, body);
    await deliver(Buffer.from(body), { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature });
  }

  async function toState(ref: string, s: SubscriptionData): Promise<SubscriptionState> {
    const off = await offset();
    return {
      ref,
      status: s.status,
      interval: s.interval,
      priceCents: s.priceCents,
      currentPeriodEnd: new Date(s.periodEnd - off),
      trialEndsAt: s.trialEndsAt === null ? null : new Date(s.trialEndsAt - off),
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      paymentMethodLabel: s.label,
      // whole seconds, as its events say it (`created`): a state and the event of the same change compare equal
      asOf: { at: new Date(Math.floor((s.changedAt ?? 0) / 1000) * 1000), sequence: s.version ?? 0 },
    };
  }
  /** the event of the subscription's last change: `created` is when it changed, `sequence` its version */
  async function emitSubscription(ref: string, s: SubscriptionData) {
    const state = await toState(ref, s);
    const { asOf, ...subscription } = state;
    await emit({
      type: s.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated',
      created: Math.floor(asOf!.at.getTime() / 1000),
      sequence: asOf!.sequence,
      subscription,
    });
    return state;
  }

  const addInterval = (ms: number, interval: Interval) => {
    const d = new Date(ms);
    if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCFullYear(d.getUTCFullYear() + 1);
    return d.getTime();
  };

  /** move money from a payment method (card) or the sandbox PayPal buyer; false = declined */
  async function charge(input: {
    paymentMethod: string | null;
    amountCents: number;
    metadata: Record<string, string>;
    description: string;
    offSession: boolean;
    fundingFails?: boolean;
  }) {
    let ok = !input.fundingFails;
    let label = `PayPal (${PAYPAL_BUYER})`;
    if (input.paymentMethod) {
      const pm = await must<PaymentMethodData>(input.paymentMethod, 'payment_method');
      label = `${pm.brand} ending ${pm.last4}`;
      ok = pm.usable && !pm.failsLater;
    }
    const ref = rid('ch_');
    await put(ref, 'charge', { ...input, status: ok ? 'succeeded' : 'failed', refunded: false });
    return { ref, ok, label };
  }

  /** `open`: an attempt on the invoice still due (the same invoice, as Stripe retries it), with what follows a failure */
  async function invoice(
    subRef: string,
    s: SubscriptionData,
    amountCents: number,
    ok: boolean,
    chargeRef: string | null,
    open?: {
      invoice: NonNullable<SubscriptionData['openInvoice']>;
      attemptCount: number;
      nextAttemptAt: number | null;
    },
  ) {
    const ref = open?.invoice.ref ?? rid('in_');
    const off = await offset();
    const periodStart = open?.invoice.periodStart ?? s.periodStart;
    const periodEnd = open?.invoice.periodEnd ?? s.periodEnd;
    await put(ref, 'invoice', { subscription: subRef, amountCents, status: ok ? 'paid' : 'failed', charge: chargeRef });
    await emit({
      type: ok ? 'invoice.paid' : 'invoice.payment_failed',
      invoice: {
        ref,
        subscriptionRef: subRef,
        amountCents,
        periodStart: new Date(periodStart - off),
        periodEnd: new Date(periodEnd - off),
        ...(open && !ok
          ? {
              attemptCount: open.attemptCount,
              nextAttemptAt: open.nextAttemptAt === null ? null : new Date(open.nextAttemptAt - off),
            }
          : {}),
      },
    });
  }

  /** the invoice due was paid: the subscription runs again */
  function settled(s: SubscriptionData) {
    s.status = 'active';
    s.retryAt = null;
    s.failedAt = null;
    s.retriesDone = 0;
    s.openInvoice = null;
  }

  /** one attempt on the invoice due (an automatic retry, or the member's "Pay now"); true when paid */
  async function collect(
    ref: string,
    s: SubscriptionData,
    automatic: boolean,
  ): Promise<{ ok: boolean; charge: string }> {
    const open = s.openInvoice!;
    const c = await charge({
      paymentMethod: s.paymentMethod,
      amountCents: open.amountCents,
      metadata: s.metadata,
      description: s.description,
      offSession: true,
      fundingFails: s.kind === 'paypal' && !!s.fundingFails,
    });
    const retries = (s.retriesDone ?? 0) + (automatic ? 1 : 0);
    if (c.ok) {
      settled(s);
      await putSubscription(ref, s);
      await invoice(ref, s, open.amountCents, true, c.ref, {
        invoice: open,
        attemptCount: retries + 1,
        nextAttemptAt: null,
      });
      await emitSubscription(ref, s);
      return { ok: true, charge: c.ref };
    }
    if (!automatic) return { ok: false, charge: c.ref };
    s.retriesDone = retries;
    const next = nextRetryAt(new Date(s.failedAt ?? s.retryAt ?? open.periodStart), retries);
    s.retryAt = next ? next.getTime() : null;
    // the last retry failed: the provider gives up and the subscription ends
    if (!next) s.status = 'canceled';
    await putSubscription(ref, s);
    await invoice(ref, s, open.amountCents, false, c.ref, {
      invoice: open,
      attemptCount: retries + 1,
      nextAttemptAt: s.retryAt,
    });
    await emitSubscription(ref, s);
    return { ok: false, charge: c.ref };
  }

  function discounted(s: SubscriptionData): number {
    if (!s.discount || s.discount.cyclesLeft <= 0) return s.priceCents;
    const d = s.discount;
    const price = d.percentOff
      ? Math.round((s.priceCents * (100 - d.percentOff)) / 100)
      : s.priceCents - (d.amountOffCents ?? 0);
    d.cyclesLeft -= 1;
    if (d.cyclesLeft <= 0) s.discount = null;
    return Math.max(0, price);
  }

  /** one renewal step of a subscription whose period (or retry) is due at `now` (clock ms) */
  async function step(ref: string, s: SubscriptionData, now: number): Promise<boolean> {
    if (s.status === 'canceled' || s.status === 'approval_pending' || s.status === 'incomplete') return false;
    if (s.status === 'past_due' && s.retryAt !== null && s.retryAt <= now) {
      s.openInvoice ??= {
        ref: rid('in_'),
        amountCents: s.priceCents,
        periodStart: s.periodStart,
        periodEnd: s.periodEnd,
      };
      await collect(ref, s, true);
      return true;
    }
    if (s.periodEnd > now) return false;
    if (s.cancelAtPeriodEnd) {
      s.status = 'canceled';
      await putSubscription(ref, s);
      await emitSubscription(ref, s);
      return true;
    }
    const previousEnd = s.periodEnd;
    const renew = () => {
      s.periodStart = previousEnd;
      s.periodEnd = addInterval(previousEnd, s.interval);
    };
    if (s.status === 'paused') {
      renew();
      if (s.pauseFeeCents > 0) {
        const c = await charge({
          paymentMethod: s.paymentMethod,
          amountCents: s.pauseFeeCents,
          metadata: s.metadata,
          description: 'Paused membership',
          offSession: true,
        });
        await putSubscription(ref, s);
        await invoice(ref, s, s.pauseFeeCents, c.ok, c.ref);
      } else {
        await putSubscription(ref, s);
      }
      await emitSubscription(ref, s);
      return true;
    }
    // trialing, active or past_due (its retry not yet due): renew
    if (s.status === 'past_due') {
      // a second period went by unpaid: the provider gives up
      s.status = 'canceled';
      await putSubscription(ref, s);
      await emitSubscription(ref, s);
      return true;
    }
    renew();
    const amount = discounted(s);
    const c = await charge({
      paymentMethod: s.paymentMethod,
      amountCents: amount,
      metadata: s.metadata,
      description: s.description,
      offSession: true,
      fundingFails: s.kind === 'paypal' && !!s.fundingFails,
    });
    let open: Parameters<typeof invoice>[5];
    if (c.ok) {
      s.status = 'active';
    } else {
      // past due: retried on the dunning schedule, counted from this failure
      s.status = 'past_due';
      s.failedAt = previousEnd;
      s.retriesDone = 0;
      s.retryAt = nextRetryAt(new Date(previousEnd), 0)!.getTime();
      s.openInvoice = { ref: rid('in_'), amountCents: amount, periodStart: s.periodStart, periodEnd: s.periodEnd };
      open = { invoice: s.openInvoice, attemptCount: 1, nextAttemptAt: s.retryAt };
    }
    await putSubscription(ref, s);
    await invoice(ref, s, amount, c.ok, c.ref, open);
    await emitSubscription(ref, s);
    return true;
  }

  async function newSubscription(input: {
    kind: 'card' | 'paypal';
    paymentMethod: string | null;
    label: string;
    priceCents: number;
    interval: Interval;
    trialDays: number;
    description: string;
    metadata: Record<string, string>;
    status: SubscriptionData['status'];
    returnUrl?: string;
    cancelUrl?: string;
  }): Promise<[string, SubscriptionData]> {
    const now = await clockNow();
    const trialEnd = input.trialDays > 0 ? now + input.trialDays * DAY : null;
    const s: SubscriptionData = {
      kind: input.kind,
      status: input.status,
      interval: input.interval,
      priceCents: input.priceCents,
      periodStart: now,
      periodEnd: trialEnd ?? addInterval(now, input.interval),
      trialEndsAt: trialEnd,
      trialDays: input.trialDays,
      cancelAtPeriodEnd: false,
      paymentMethod: input.paymentMethod,
      label: input.label,
      metadata: input.metadata,
      pauseFeeCents: 0,
      discount: null,
      retryAt: null,
      description: input.description,
      ...(input.returnUrl ? { returnUrl: input.returnUrl, cancelUrl: input.cancelUrl } : {}),
    };
    const ref = input.kind === 'card' ? rid('sub_') : rid('I-', 8).toUpperCase();
    await putSubscription(ref, s);
    return [ref, s];
  }

  async function subscription(ref: string) {
    return must<SubscriptionData>(ref, 'subscription');
  }

  /** the checks a card form's details get (number, expiry, CVC; the declined test card) */
  async function checkCard(input: { number: string; expMonth: number; expYear: number; cvc: string }) {
    const number = input.number.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhn(number))
      throw new ProviderError('card_declined', 'Your card number is invalid.');
    const now = new Date(await clockNow());
    const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    if (
      !(input.expMonth >= 1 && input.expMonth <= 12) ||
      year < now.getUTCFullYear() ||
      (year === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1)
    )
      throw new ProviderError('card_declined', "Your card's expiration date is invalid.");
    if (!/^\d{3,4}$/.test(input.cvc)) throw new ProviderError('card_declined', "Your card's security code is invalid.");
    if (number === SANDBOX_CARDS.declined) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
    return { number, year };
  }

  function hostedResult(ref: string, h: HostedCheckoutData): ChargeResult {
    if (h.status === 'complete') return { ref: h.charge ?? ref, status: 'succeeded', paymentMethodLabel: h.label };
    if (h.status === 'canceled')
      return {
        ref,
        status: 'failed',
        failureMessage: 'The checkout was cancelled. You have not been charged.',
        paymentMethodLabel: h.label,
      };
    return {
      ref,
      status: 'requires_action',
      nextAction: { url: `/sandbox/checkout/${ref}` },
      paymentMethodLabel: h.label,
    };
  }

  const provider: PaymentProvider = {
    name: 'sandbox',

    async createHostedCheckout(input) {
      const ref = await once(`hosted:${input.idempotencyKey}`, async () => {
        const id = rid('cs_test_');
        const data: HostedCheckoutData = {
          amountCents: input.amountCents,
          description: input.description,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          methods: input.methods,
          metadata: input.metadata,
          status: 'open',
          charge: null,
          label: '',
        };
        await put(id, 'hosted_checkout', data);
        return id;
      });
      return { ref, url: `/sandbox/checkout/${ref}` } satisfies Approval;
    },

    async getHostedCheckout(ref) {
      return hostedResult(ref, await must<HostedCheckoutData>(ref, 'hosted_checkout'));
    },

    async createCardSetup(input) {
      const ref = await once(`setup:${input.idempotencyKey}`, async () => {
        const id = rid('seti_');
        await put(id, 'setup_intent', {
          secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
          email: input.email,
          name: input.name,
          metadata: input.metadata,
          status: 'requires_payment_method',
          paymentMethod: null,
        });
        return id;
      });
      const seti = await must<{ secret: string }>(ref, 'setup_intent');
      return { clientSecret: seti.secret };
    },

    async chargeCard(input) {
      const method = await must<PaymentMethodData>(input.paymentMethod, 'payment_method');
      if (!method.usable) {
        return {
          ref: input.paymentMethod,
          status: 'requires_action',
          nextAction: { url: `/sandbox/authenticate/${input.paymentMethod}` },
          paymentMethodLabel: `${method.brand} ending ${method.last4}`,
        } satisfies ChargeResult;
      }
      const ref = await once(`charge:${input.idempotencyKey}`, async () => {
        const c = await charge({
          paymentMethod: input.paymentMethod,
          amountCents: input.amountCents,
          metadata: input.metadata,
          description: input.description,
          offSession: false,
        });
        await emit(
          c.ok
            ? {
                type: 'charge.succeeded',
                charge: { ref: c.ref, amountCents: input.amountCents, metadata: input.metadata },
              }
            : {
                type: 'charge.failed',
                charge: {
                  ref: c.ref,
                  amountCents: input.amountCents,
                  metadata: input.metadata,
                  failureMessage: COMMERCE_MESSAGES.cardDeclined,
                },
              },
        );
        return c.ref;
      });
      const c = await must<{ status: string; paymentMethod: string }>(ref, 'charge');
      const pm = await must<PaymentMethodData>(c.paymentMethod, 'payment_method');
      const result: ChargeResult = {
        ref,
        status: c.status === 'succeeded' ? 'succeeded' : 'failed',
        paymentMethodLabel: `${pm.brand} ending ${pm.last4}`,
      };
      if (result.status === 'failed') result.failureMessage = COMMERCE_MESSAGES.cardDeclined;
      return result;
    },

    /** ProviderError('card_declined') when the first payment is declined */
    async subscribeCard(input) {
      const pm = await must<PaymentMethodData>(input.paymentMethod, 'payment_method');
      if (!pm.usable)
        throw new ProviderError('authentication_required', 'This card needs authentication before it can be used.');
      const label = `${pm.brand} ending ${pm.last4}`;
      const ref = await once(`subscribe:${input.idempotencyKey}`, async () => {
        if (input.trialDays <= 0 && pm.failsLater)
          throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
        const [ref, s] = await newSubscription({
          kind: 'card',
          paymentMethod: input.paymentMethod,
          label,
          priceCents: input.priceCents,
          interval: input.interval,
          trialDays: input.trialDays,
          description: input.description,
          metadata: input.metadata,
          status: input.trialDays > 0 ? 'trialing' : 'active',
        });
        if (input.trialDays <= 0) {
          const c = await charge({
            paymentMethod: input.paymentMethod,
            amountCents: input.priceCents,
            metadata: input.metadata,
            description: input.description,
            offSession: false,
          });
          await put(ref, 'subscription', { ...s, firstCharge: c.ref });
        }
        return ref;
      });
      const s = await subscription(ref);
      await emitSubscription(ref, s);
      return toState(ref, s);
    },

    async createPaypalOrder(input) {
      const ref = await once(`order:${input.idempotencyKey}`, async () => {
        const id = rid('SBPO', 8).toUpperCase();
        const data: PaypalOrderData = {
          amountCents: input.amountCents,
          description: input.description,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
          status: 'CREATED',
          metadata: input.metadata,
          charge: null,
        };
        await put(id, 'paypal_order', data);
        return id;
      });
      return { ref, url: `/sandbox/paypal/approve/${ref}` } satisfies Approval;
    },

    async capturePaypalOrder(ref) {
      const order = await must<PaypalOrderData>(ref, 'paypal_order');
      if (order.status === 'CANCELED') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
      if (order.status === 'CREATED')
        throw new ProviderError('provider_error', 'The PayPal payment has not been approved.');
      if (order.status === 'APPROVED') {
        const c = await charge({
          paymentMethod: null,
          amountCents: order.amountCents,
          metadata: order.metadata,
          description: order.description,
          offSession: false,
        });
        order.status = 'COMPLETED';
        order.charge = c.ref;
        await put(ref, 'paypal_order', order);
        await emit({
          type: 'charge.succeeded',
          charge: { ref, amountCents: order.amountCents, metadata: order.metadata },
        });
      }
      return { ref, status: 'succeeded', paymentMethodLabel: `PayPal (${PAYPAL_BUYER})` } satisfies ChargeResult;
    },

    async createPaypalSubscription(input) {
      const ref = await once(`paypal-sub:${input.idempotencyKey}`, async () => {
        const [ref] = await newSubscription({
          kind: 'paypal',
          paymentMethod: null,
          label: `PayPal (${PAYPAL_BUYER})`,
          priceCents: input.priceCents,
          interval: input.interval,
          trialDays: input.trialDays,
          description: input.description,
          metadata: input.metadata,
          status: 'approval_pending',
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
        });
        return ref;
      });
      return { ref, url: `/sandbox/paypal/approve/${ref}` } satisfies Approval;
    },

    async getSubscription(ref) {
      return toState(ref, await subscription(ref));
    },

    async applyDiscount(ref, discount, idempotencyKey) {
      const s = await subscription(ref);
      const done = await get(`idem:discount:${idempotencyKey}`, 'idempotency');
      if (!done) {
        s.discount = {
          ...(discount.percentOff ? { percentOff: discount.percentOff } : {}),
          ...(discount.amountOffCents ? { amountOffCents: discount.amountOffCents } : {}),
          cyclesLeft: discount.cycles,
        };
        await putSubscription(ref, s);
        await put(`idem:discount:${idempotencyKey}`, 'idempotency', { ref });
        return emitSubscription(ref, s);
      }
      return toState(ref, s);
    },

    async changePlan(ref, plan, idempotencyKey) {
      const s = await subscription(ref);
      const done = await get(`idem:plan:${idempotencyKey}`, 'idempotency');
      if (!done) {
        const now = await clockNow();
        // the first period at the new price, less a one-off amount (the upgrade offer); later renewals pay the full price
        const firstCents = Math.max(0, plan.priceCents - (plan.firstInvoiceAmountOffCents ?? 0));
        const c = await charge({
          paymentMethod: s.paymentMethod,
          amountCents: firstCents,
          metadata: s.metadata,
          description: s.description,
          offSession: true,
        });
        if (!c.ok) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
        Object.assign(s, {
          priceCents: plan.priceCents,
          interval: plan.interval,
          periodStart: now,
          periodEnd: addInterval(now, plan.interval),
          status: 'active',
          trialEndsAt: null,
          cancelAtPeriodEnd: false,
          retryAt: null,
        });
        await putSubscription(ref, s);
        await put(`idem:plan:${idempotencyKey}`, 'idempotency', { ref });
        // the plan change first, so the invoice is filed under the new plan
        const state = await emitSubscription(ref, s);
        await invoice(ref, s, firstCents, true, c.ref);
        return state;
      }
      return toState(ref, s);
    },

    async pause(ref, opts) {
      const s = await subscription(ref);
      if (s.status === 'canceled') throw new ProviderError('provider_error', 'This subscription has been canceled.');
      if (s.status !== 'paused') {
        s.status = 'paused';
        s.pauseFeeCents = opts.feeCents;
        s.cancelAtPeriodEnd = false;
        await putSubscription(ref, s);
        return emitSubscription(ref, s);
      }
      return toState(ref, s);
    },

    async resume(ref) {
      const s = await subscription(ref);
      if (s.status === 'paused') {
        const now = await clockNow();
        s.status = 'active';
        s.pauseFeeCents = 0;
        if (s.periodEnd <= now) {
          s.periodStart = now;
          s.periodEnd = addInterval(now, s.interval);
        }
        await putSubscription(ref, s);
        return emitSubscription(ref, s);
      }
      return toState(ref, s);
    },

    async cancel(ref, opts) {
      const s = await subscription(ref);
      if (s.status === 'canceled') return toState(ref, s);
      if (opts.atPeriodEnd && s.status !== 'paused' && s.status !== 'approval_pending') s.cancelAtPeriodEnd = true;
      else s.status = 'canceled';
      await putSubscription(ref, s);
      return emitSubscription(ref, s);
    },

    /** the whole charge, or `amountCents` of it (a key already used refunds nothing more) */
    async refund(chargeRef, idempotencyKey, amountCents) {
      const order = await get<PaypalOrderData>(chargeRef, 'paypal_order');
      const id = order?.charge ?? chargeRef;
      const c = await get<{
        amountCents: number;
        metadata: Record<string, string>;
        refunded: boolean;
        refundedCents?: number;
      }>(id, 'charge');
      if (!c) throw new ProviderError('not_found', `No such charge: ${chargeRef}`);
      if (c.refunded) return;
      if (await get(`idem:refund:${idempotencyKey}`, 'idempotency')) return;
      const already = c.refundedCents ?? 0;
      const amount = amountCents ?? c.amountCents - already;
      if (amount <= 0 || already + amount > c.amountCents)
        throw new ProviderError('provider_error', 'The refund is more than what is left of the charge.');
      c.refundedCents = already + amount;
      c.refunded = c.refundedCents >= c.amountCents;
      await put(id, 'charge', c);
      await put(`idem:refund:${idempotencyKey}`, 'idempotency', { ref: id });
      await emit({ type: 'charge.refunded', charge: { ref: chargeRef, amountCents: amount, metadata: c.metadata } });
    },

    async subscriptionPaymentCharge(subscriptionRef, invoiceRef) {
      if (invoiceRef) {
        const inv = await get<{ subscription: string; charge: string | null }>(invoiceRef, 'invoice');
        if (!inv || inv.subscription !== subscriptionRef || !inv.charge)
          throw new ProviderError('not_found', 'The provider has no charge for this payment.');
        return inv.charge;
      }
      const s = await subscription(subscriptionRef);
      if (!s.firstCharge) throw new ProviderError('not_found', 'The provider has no charge for this payment.');
      return s.firstCharge;
    },

    async createSubscriptionCardSetup(ref, input) {
      const s = await subscription(ref);
      if (s.kind !== 'card') throw new ProviderError('unsupported', 'This membership is paid through PayPal.');
      return provider.createCardSetup({ email: '', name: '', ...input });
    },

    async updatePaymentMethod(ref, paymentMethod) {
      const s = await subscription(ref);
      if (s.kind !== 'card') throw new ProviderError('unsupported', 'This membership is paid through PayPal.');
      if (s.status === 'canceled') throw new ProviderError('canceled', 'This subscription has been canceled.');
      const pm = await must<PaymentMethodData>(paymentMethod, 'payment_method');
      if (!pm.usable)
        throw new ProviderError('authentication_required', 'This card needs authentication before it can be used.');
      s.paymentMethod = paymentMethod;
      s.label = `${pm.brand} ending ${pm.last4}`;
      await putSubscription(ref, s);
      return emitSubscription(ref, s);
    },

    async retryPayment(ref, idempotencyKey): Promise<RetryResult> {
      // one attempt per key, whatever the double clicks
      const attempt = await once(`retry:${idempotencyKey}`, async () => {
        const s = await subscription(ref);
        if (s.status !== 'past_due' || !s.openInvoice) return 'nothing-due';
        return (await collect(ref, s, false)).charge;
      });
      const s = await subscription(ref);
      const state = await toState(ref, s);
      if (attempt === 'nothing-due') return { paid: s.status !== 'past_due', state };
      const c = await get<{ status: string }>(attempt, 'charge');
      if (c?.status === 'succeeded') return { paid: true, state };
      return {
        paid: false,
        failureMessage:
          s.kind === 'paypal'
            ? 'PayPal declined this payment. Please choose another way to pay.'
            : COMMERCE_MESSAGES.cardDeclined,
        state,
      };
    },

    async fundingFixUrl(ref) {
      const s = await subscription(ref);
      if (s.kind !== 'paypal') throw new ProviderError('unsupported', 'This membership is paid by card.');
      return `/sandbox/paypal/approve/${ref}`;
    },

    async verifyWebhook(rawBody, headers) {
      verifySandboxSignature(deps.webhookSecret, rawBody, header(headers, SANDBOX_SIGNATURE_HEADER));
      return parseSandboxEvent(rawBody);
    },

    async fetchEvent(eventId) {
      const stored = await get<{ body: string }>(eventId, 'event');
      if (!stored) throw new ProviderError('not_found', 'The sandbox has no event with this id.');
      return parseSandboxEvent(Buffer.from(stored.body));
    },
  };

  return {
    ...provider,
    name: 'sandbox' as const,
    setDeliverer(fn: Deliver | null) {
      deliver = fn;
    },
    now: clockNow,

    /** POST /sandbox/setup-intents/confirm: the card the page collected */
    async confirmSetup(input: {
      clientSecret: string;
      number: string;
      expMonth: number;
      expYear: number;
      cvc: string;
      name: string;
    }): Promise<
      { paymentMethod: string; requiresAction: false } | { paymentMethod: string; requiresAction: true; url: string }
    > {
      const id = input.clientSecret.split('_secret_')[0] ?? '';
      const seti = await get<{ secret: string; status: string; paymentMethod: string | null }>(id, 'setup_intent');
      if (!seti || seti.secret !== input.clientSecret)
        throw new ProviderError('not_found', 'This card form has expired. Please refresh the page and try again.');
      const { number, year } = await checkCard(input);
      const pmId = rid('pm_');
      const needsAuth = number === SANDBOX_CARDS.needsAuthentication;
      const pm: PaymentMethodData = {
        brand: brandOf(number),
        last4: number.slice(-4),
        name: input.name,
        usable: !needsAuth,
        failsLater: number === SANDBOX_CARDS.failsLater,
        setupIntent: id,
        expMonth: input.expMonth,
        expYear: year,
      };
      await put(pmId, 'payment_method', pm);
      await put(id, 'setup_intent', {
        ...seti,
        status: needsAuth ? 'requires_action' : 'succeeded',
        paymentMethod: pmId,
      });
      return needsAuth
        ? { paymentMethod: pmId, requiresAction: true, url: `/sandbox/authenticate/${pmId}` }
        : { paymentMethod: pmId, requiresAction: false };
    },

    /** the 3-D Secure challenge: complete makes the card usable; fail leaves it refused */
    async authenticate(paymentMethod: string, outcome: 'complete' | 'fail') {
      const pm = await must<PaymentMethodData>(paymentMethod, 'payment_method');
      if (outcome === 'complete') {
        pm.usable = true;
        await put(paymentMethod, 'payment_method', pm);
        const seti = await get<Obj>(pm.setupIntent, 'setup_intent');
        if (seti) await put(pm.setupIntent, 'setup_intent', { ...seti, status: 'succeeded' });
        return { paymentMethod };
      }
      throw new ProviderError(
        'authentication_required',
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      );
    },

    async paymentMethodInfo(paymentMethod: string) {
      const pm = await get<PaymentMethodData>(paymentMethod, 'payment_method');
      return pm ? { id: paymentMethod, label: `${pm.brand} ending ${pm.last4}`, usable: pm.usable } : null;
    },

    /** tests: the PayPal buyer's funding source declines (`fails`) or pays again */
    async setPaypalFunding(ref: string, opts: { fails: boolean }) {
      const s = await subscription(ref);
      if (s.kind !== 'paypal') throw new ProviderError('not_found', `No such PayPal subscription: ${ref}`);
      s.fundingFails = opts.fails;
      await putSubscription(ref, s);
    },

    /** what the PayPal-like approval page shows */
    async approvalInfo(ref: string) {
      const obj = await get<Obj>(ref);
      if (!obj) return null;
      const [row] = await db
        .select({ kind: sandboxObjects.kind })
        .from(sandboxObjects)
        .where(eq(sandboxObjects.id, ref));
      if (row?.kind === 'paypal_order') {
        const o = obj as PaypalOrderData;
        return {
          ref,
          kind: 'order' as const,
          amountCents: o.amountCents,
          description: o.description,
          interval: null,
          trialDays: 0,
          status: o.status === 'CREATED' ? 'pending' : o.status === 'CANCELED' ? 'canceled' : 'approved',
        };
      }
      if (row?.kind === 'subscription' && (obj as SubscriptionData).kind === 'paypal') {
        const s = obj as SubscriptionData;
        // past due: the buyer fixes the funding source and approves the payment due
        if (s.status === 'past_due' && s.openInvoice)
          return {
            ref,
            kind: 'subscription' as const,
            amountCents: s.openInvoice.amountCents,
            description: `Payment due: ${s.description}`,
            interval: s.interval,
            trialDays: 0,
            status: 'pending',
          };
        return {
          ref,
          kind: 'subscription' as const,
          amountCents: s.priceCents,
          description: s.description,
          interval: s.interval,
          trialDays: s.trialDays,
          status: s.status === 'approval_pending' ? 'pending' : s.status === 'canceled' ? 'canceled' : 'approved',
        };
      }
      return null;
    },

    /** the buyer approved on the approval page: where PayPal would send them back */
    async approvePaypal(ref: string): Promise<string> {
      const [row] = await db
        .select()
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.id, ref), inArray(sandboxObjects.kind, ['paypal_order', 'subscription'])));
      if (!row) throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (row.kind === 'paypal_order') {
        const o = row.data as PaypalOrderData;
        if (o.status === 'CANCELED') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
        if (o.status === 'CREATED') await put(ref, 'paypal_order', { ...o, status: 'APPROVED' });
        return withParams(o.returnUrl, { token: ref, PayerID: 'SANDBOXPAYER' });
      }
      const s = row.data as SubscriptionData;
      if (s.kind !== 'paypal') throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (s.status === 'canceled') throw new ProviderError('canceled', COMMERCE_MESSAGES.paymentCanceled);
      if (s.status === 'past_due' && s.openInvoice) {
        // the buyer chose a funding source that pays: what is due is collected now
        s.fundingFails = false;
        await collect(ref, s, false);
        return '/account/billing?paypal=fixed';
      }
      if (s.status === 'approval_pending') {
        const now = await clockNow();
        s.status = s.trialDays > 0 ? 'trialing' : 'active';
        s.periodStart = now;
        s.trialEndsAt = s.trialDays > 0 ? now + s.trialDays * DAY : null;
        s.periodEnd = s.trialEndsAt ?? addInterval(now, s.interval);
        if (s.trialDays <= 0)
          s.firstCharge = (
            await charge({
              paymentMethod: null,
              amountCents: s.priceCents,
              metadata: s.metadata,
              description: s.description,
              offSession: false,
            })
          ).ref;
        await putSubscription(ref, s);
        await emitSubscription(ref, s);
      }
      return withParams(s.returnUrl ?? '/', { subscription_id: ref, ba_token: `BA-${ref}`, token: ref });
    },

    async cancelPaypal(ref: string): Promise<string> {
      const [row] = await db
        .select()
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.id, ref), inArray(sandboxObjects.kind, ['paypal_order', 'subscription'])));
      if (!row) throw new ProviderError('not_found', 'This PayPal payment no longer exists.');
      if (row.kind === 'paypal_order') {
        const o = row.data as PaypalOrderData;
        if (o.status === 'CREATED') await put(ref, 'paypal_order', { ...o, status: 'CANCELED' });
        return withParams(o.cancelUrl, { token: ref });
      }
      const s = row.data as SubscriptionData;
      if (s.status === 'approval_pending') await putSubscription(ref, { ...s, status: 'canceled' });
      return withParams(s.cancelUrl ?? '/', { token: ref });
    },

    /** what the sandbox's hosted checkout page shows */
    async hostedCheckoutInfo(ref: string) {
      const h = await get<HostedCheckoutData>(ref, 'hosted_checkout');
      return h
        ? { ref, amountCents: h.amountCents, description: h.description, methods: h.methods, status: h.status }
        : null;
    },

    /**
     * The buyer pays on the hosted page: by card (the test cards; …3155 asks for authentication
     * first: `authenticated` is the buyer's answer) or, for a financing checkout, "Pay over time".
     * Emits charge.succeeded with the checkout's metadata; answers the success address.
     */
    async payHostedCheckout(
      ref: string,
      input:
        | {
            method: 'card';
            number: string;
            expMonth: number;
            expYear: number;
            cvc: string;
            name: string;
            authenticated?: boolean;
          }
        | { method: 'financing' },
    ): Promise<{ url: string } | { requiresAction: true }> {
      const h = await must<HostedCheckoutData>(ref, 'hosted_checkout');
      const done = () => ({ url: withParams(h.successUrl, { session_id: ref }) });
      if (h.status === 'complete') return done();
      if (h.status === 'canceled')
        throw new ProviderError('canceled', 'This checkout was cancelled. Please start again from the shop.');
      let label = FINANCING_LABEL;
      let chargeable = true;
      if (input.method === 'card') {
        const { number } = await checkCard(input);
        if (number === SANDBOX_CARDS.needsAuthentication && !input.authenticated) return { requiresAction: true };
        label = `${brandOf(number)} ending ${number.slice(-4)}`;
        chargeable = number !== SANDBOX_CARDS.failsLater;
      } else if (h.methods !== 'financing') {
        throw new ProviderError('unsupported', 'This checkout takes cards only.');
      }
      if (!chargeable) throw new ProviderError('card_declined', COMMERCE_MESSAGES.cardDeclined);
      // one payment per checkout, whatever the double clicks
      await once(`hosted-pay:${ref}`, async () => {
        const c = rid('ch_');
        await put(c, 'charge', {
          paymentMethod: null,
          amountCents: h.amountCents,
          metadata: h.metadata,
          description: h.description,
          offSession: false,
          status: 'succeeded',
          refunded: false,
        });
        const current = await must<HostedCheckoutData>(ref, 'hosted_checkout');
        await put(ref, 'hosted_checkout', { ...current, status: 'complete', charge: c, label });
        await emit({ type: 'charge.succeeded', charge: { ref: c, amountCents: h.amountCents, metadata: h.metadata } });
        return c;
      });
      return done();
    },

    async cancelHostedCheckout(ref: string): Promise<string> {
      const h = await must<HostedCheckoutData>(ref, 'hosted_checkout');
      if (h.status === 'open') await put(ref, 'hosted_checkout', { ...h, status: 'canceled' });
      return withParams(h.cancelUrl, { session_id: ref });
    },

    /** move the clock: renewals, failed payments, trial ends, cancellations at period end */
    async advanceClock(days: number) {
      const current = await offset();
      await put('clock', 'clock', { offsetMs: current + Math.round(days * DAY) });
      const now = await clockNow();
      const rows = await db.select().from(sandboxObjects).where(eq(sandboxObjects.kind, 'subscription'));
      let steps = 0;
      for (const row of rows) {
        // read fresh before every step: a webhook handler may have changed it (e.g. cancelled an
        // instalment plan after its last payment) while the previous step was delivering events
        for (let i = 0; i < 500; i++) {
          const s = await get<SubscriptionData>(row.id, 'subscription');
          if (!s || !(await step(row.id, s, now))) break;
          steps++;
        }
      }
      return { now: new Date(now), steps };
    },
  };
}

function withParams(url: string, params: Record<string, string>) {
  const u = new URL(url, 'http://sandbox.invalid');
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.origin === 'http://sandbox.invalid' ? `${u.pathname}${u.search}${u.hash}` : u.toString();
}

// ---- the sandbox's events as it sends them (emit above): checked before they are used

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'not a date');
const SANDBOX_EVENT = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int().nonnegative().optional(),
  sequence: z.number().int().nonnegative().optional(),
});
const SANDBOX_PARTS = {
  charge: z.looseObject({
    ref: z.string(),
    amountCents: z.number().int(),
    metadata: z.record(z.string(), z.string()).default({}),
    failureMessage: z.string().optional(),
  }),
  invoice: z.looseObject({
    ref: z.string(),
    subscriptionRef: z.string(),
    amountCents: z.number().int(),
    periodStart: isoDate,
    periodEnd: isoDate,
    billingReason: z.string().optional(),
    attemptCount: z.number().int().optional(),
    nextAttemptAt: isoDate.nullable().optional(),
  }),
  subscription: z.looseObject({
    ref: z.string(),
    status: z.enum(['trialing', 'active', 'past_due', 'paused', 'canceled', 'incomplete', 'approval_pending']),
    interval: z.enum(['month', 'year']),
    priceCents: z.number().int(),
    currentPeriodEnd: isoDate,
    trialEndsAt: isoDate.nullable(),
    cancelAtPeriodEnd: z.boolean(),
    paymentMethodLabel: z.string(),
  }),
};

/** the sandbox's event body back into a ProviderEvent (dates revived); MalformedEventError when it is not in its shape */
export function parseSandboxEvent(rawBody: Buffer): ProviderEvent {
  const json = eventJson(rawBody);
  const read = <S extends z.ZodType>(schema: S) => readEvent(schema, json, field(json, 'id'), field(json, 'type'));
  const { id, type, created, sequence } = read(SANDBOX_EVENT);
  switch (type) {
    case 'charge.succeeded':
    case 'charge.failed':
    case 'charge.refunded':
      return { id, type, charge: read(SANDBOX_EVENT.extend({ charge: SANDBOX_PARTS.charge })).charge };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const inv = read(SANDBOX_EVENT.extend({ invoice: SANDBOX_PARTS.invoice })).invoice;
      return {
        id,
        type,
        invoice: {
          ref: inv.ref,
          subscriptionRef: inv.subscriptionRef,
          amountCents: inv.amountCents,
          periodStart: new Date(inv.periodStart),
          periodEnd: new Date(inv.periodEnd),
          ...(inv.billingReason !== undefined ? { billingReason: inv.billingReason } : {}),
          ...(inv.attemptCount !== undefined ? { attemptCount: inv.attemptCount } : {}),
          ...(inv.nextAttemptAt !== undefined
            ? { nextAttemptAt: inv.nextAttemptAt === null ? null : new Date(inv.nextAttemptAt) }
            : {}),
        },
      };
    }
    case 'subscription.updated':
    case 'subscription.canceled': {
      const sub = read(SANDBOX_EVENT.extend({ subscription: SANDBOX_PARTS.subscription })).subscription;
      return {
        id,
        type,
        subscription: {
          ref: sub.ref,
          status: sub.status,
          interval: sub.interval,
          priceCents: sub.priceCents,
          currentPeriodEnd: new Date(sub.currentPeriodEnd),
          trialEndsAt: sub.trialEndsAt ? new Date(sub.trialEndsAt) : null,
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          paymentMethodLabel: sub.paymentMethodLabel,
          ...(created !== undefined ? { asOf: { at: new Date(created * 1000), sequence: sequence ?? 0 } } : {}),
        },
      };
    }
    default:
      return { id, type: 'ignored', providerType: type };
  }
}

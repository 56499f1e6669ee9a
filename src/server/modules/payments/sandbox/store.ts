import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { sandboxObjects } from '#server/db/schema/index';
import { ProviderError, type Interval, type SubscriptionState } from '../provider.ts';

/**
 * The sandbox's state: its objects (payment methods, charges, invoices, subscriptions, PayPal
 * orders, hosted checkouts, events) as JSON rows of `sandbox_objects` by kind, the idempotency keys
 * it has answered, and its clock.
 */

export const DAY = 24 * 60 * 60 * 1000;
export const PAYPAL_BUYER = 'buyer@sandbox.test';

export type Obj = Record<string, unknown>;
export interface PaymentMethodData extends Obj {
  brand: string;
  last4: string;
  name: string;
  usable: boolean;
  failsLater: boolean;
  setupIntent: string;
}
export interface SubscriptionData extends Obj {
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
export interface PaypalOrderData extends Obj {
  amountCents: number;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  status: 'CREATED' | 'APPROVED' | 'CANCELED' | 'COMPLETED';
  metadata: Record<string, string>;
  charge: string | null;
}

/** a hosted checkout page: the buyer pays on /sandbox/checkout/:ref */
export interface HostedCheckoutData extends Obj {
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

export type Deliver = (rawBody: Buffer, headers: Record<string, string>) => Promise<void>;

/** What the sandbox's parts share: its store, the secret its webhooks are signed with, and where they go. */
export interface SandboxContext {
  db: Database;
  webhookSecret: string;
  /** the app's own webhook handler (setDeliverer); null: events are stored, not sent */
  deliver: Deliver | null;
}

export const rid = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString('hex')}`;

export const addInterval = (ms: number, interval: Interval) => {
  const d = new Date(ms);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
};

/** a return address with the provider's parameters added; site paths stay site paths */
export function withParams(url: string, params: Record<string, string>) {
  const u = new URL(url, 'http://sandbox.invalid');
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.origin === 'http://sandbox.invalid' ? `${u.pathname}${u.search}${u.hash}` : u.toString();
}

export async function get<T extends Obj>(db: Database, id: string, kind?: string): Promise<T | null> {
  const [row] = await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)).limit(1);
  if (!row || (kind && row.kind !== kind)) return null;
  return row.data as T;
}

export async function must<T extends Obj>(db: Database, id: string, kind: string): Promise<T> {
  const obj = await get<T>(db, id, kind);
  if (!obj) throw new ProviderError('not_found', `No such ${kind.replace('_', ' ')}: ${id}`);
  return obj;
}

export async function put(db: Database, id: string, kind: string, data: Obj) {
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
export async function once(db: Database, key: string, create: () => Promise<string>): Promise<string> {
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
    const row = await get<{ ref: string | null }>(db, id, 'idempotency');
    if (!row) return once(db, key, create);
    if (row.ref) return row.ref;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new ProviderError('provider_error', 'The payment provider is busy with the same request. Please try again.');
}

/** how far the sandbox's clock runs ahead of real time (ms) */
export async function offset(db: Database): Promise<number> {
  return (await get<{ offsetMs: number }>(db, 'clock', 'clock'))?.offsetMs ?? 0;
}

/** the sandbox's clock: real time + its offset (ms) */
export async function clockNow(db: Database) {
  return Date.now() + (await offset(db));
}

export async function subscription(db: Database, ref: string) {
  return must<SubscriptionData>(db, ref, 'subscription');
}

/** a subscription changed: its next version, stamped with the time of the change */
export async function putSubscription(db: Database, ref: string, s: SubscriptionData) {
  s.version = (s.version ?? 0) + 1;
  s.changedAt = Date.now();
  await put(db, ref, 'subscription', s);
}

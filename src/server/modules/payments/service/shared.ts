import { eq } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client';
import { orders, type subscriptions } from '#server/db/schema/index';
import type { NotificationService } from '#server/modules/notifications/index';
import type { UserService } from '#server/modules/users/index';
import type { ProviderName } from '#shared/commerce';
import type { PaymentProvider, ProviderEvent, SubscriptionState } from '../provider.ts';
import type { SandboxProvider } from '../sandbox/index.ts';

export type OrderRow = typeof orders.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export interface PaymentsDeps {
  db: Database;
  users: UserService;
  notifications: NotificationService;
  /** the providers chosen by configuration: card = sandbox | stripe, paypal = sandbox | paypal */
  card: PaymentProvider;
  paypal: PaymentProvider;
  /** the built-in sandbox when one of the two is the sandbox (its pages, clock, webhooks) */
  sandbox?: SandboxProvider | null;
}

/** a signed webhook delivery that could not be applied (see `webhookFailures` in the schema) */
export interface WebhookFailureInput {
  provider: ProviderName;
  eventId: string | null;
  eventType: string | null;
  kind: 'rejected' | 'failed';
  reason: string;
  outline: string | null;
}

/** the provider events about a subscription (membership or someone else's, e.g. an instalment plan) */
export type SubscriptionEvent = Extract<
  ProviderEvent,
  { type: 'invoice.paid' | 'invoice.payment_failed' | 'subscription.updated' | 'subscription.canceled' }
>;

/**
 * Another module that owns some orders and provider subscriptions (the mentorship's
 * one-time orders and instalment plans). The ledger stays the one dispatch table: it calls the
 * owner for its orders once they are paid or refunded, and for provider subscription events that
 * are not a membership subscription. Every hook must be idempotent (replays, both the return
 * address and the webhook settling the same order).
 */
export interface PaymentsOwner {
  /** the `orders.kind` this owner settles */
  orderKind: string;
  /** the order is paid (every time markOrderPaid finds it paid) */
  orderPaid?(order: OrderRow): Promise<void>;
  /** the order's charge was refunded */
  orderRefunded?(order: OrderRow): Promise<void>;
  /** a subscription event the membership ledger does not know; answer true when it was yours */
  subscriptionEvent?(provider: ProviderName, event: SubscriptionEvent): Promise<boolean>;
  /** what a member may buy once among this owner's orders (see HoldRule) */
  hold?: HoldRule;
}

/**
 * How long an unfinished purchase keeps its hold: a card charge answers in seconds, 3-D Secure or a
 * PayPal capture in minutes. A hold older than this (the process stopped mid-charge, the buyer left
 * the authentication page) no longer stops the member from paying again.
 */
export const HOLD_MINUTES = 15;

/**
 * "At most one" for a kind of order: a member holds at most one live membership, one copy of each
 * course, one mentorship. Before the provider is asked to charge, the order takes its hold inside
 * one transaction: the partial unique index orders_one_hold lets one unfinished order per member and
 * scope exist, and `owned` (read after the hold is in place, so a purchase that finished meanwhile
 * is seen) refuses what the member already has. The second tab hears 409 with `refusal`.
 */
export interface HoldRule {
  /** what the order holds (`membership`, `course:{id}`, `mentorship`); null: nothing */
  scope(order: Pick<OrderRow, 'kind' | 'plan' | 'productSlug' | 'metadata'>): string | null;
  /** the member already has it (read with `tx`, inside the reserving transaction) */
  owned(tx: Executor, order: OrderRow): Promise<boolean>;
  /** what a second purchase answers (409): the words the page uses for "already yours" */
  refusal: string;
}

/**
 * What every part of the payments service shares: its dependencies, the other modules that own
 * orders (registerOwner), and the lookups each part needs.
 */
export interface PaymentsContext {
  deps: PaymentsDeps;
  db: Database;
  owners: PaymentsOwner[];
  ownerOf(kind: string): PaymentsOwner | null;
  /** a subscription event no membership row claimed: its owner's, if any */
  toOwners(provider: ProviderName, event: SubscriptionEvent): Promise<void>;
  providerNamed(name: ProviderName): PaymentProvider;
  findOrder(id: number, tx?: Executor): Promise<OrderRow | null>;
}

export function createPaymentsContext(deps: PaymentsDeps): PaymentsContext {
  const { db } = deps;
  const owners: PaymentsOwner[] = [];
  const ownerOf = (kind: string) => owners.find((o) => o.orderKind === kind) ?? null;
  async function toOwners(provider: ProviderName, event: SubscriptionEvent) {
    for (const owner of owners) if (owner.subscriptionEvent && (await owner.subscriptionEvent(provider, event))) return;
  }

  function providerNamed(name: ProviderName): PaymentProvider {
    if (deps.card.name === name) return deps.card;
    return deps.paypal;
  }

  async function findOrder(id: number, tx: Executor = db) {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).limit(1);
    return row ?? null;
  }

  return { deps, db, owners, ownerOf, toOwners, providerNamed, findOrder };
}

type StateOrder = { at: Date; sequence: number };
type OrderedRow = Pick<SubscriptionRow, 'providerStateAt' | 'providerStateSequence'>;

/**
 * The provider's order of a subscription state: its `asOf`, or, from a provider that does not say
 * (a Stripe call's answer, PayPal's subscription read afresh), the second it was read, as new as
 * anything the row took in that second (the provider's own event of the same second counts as new).
 */
export function stateOrder(
  state: Pick<SubscriptionState, 'asOf'>,
  row: OrderedRow | null = null,
  now = new Date(),
): StateOrder {
  if (state.asOf) return state.asOf;
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return { at, sequence: row?.providerStateAt?.getTime() === at.getTime() ? row.providerStateSequence : 0 };
}

/** the state is older than the last one applied to the row: earlier, or the same second with a lower sequence */
export function isOlderState(asOf: StateOrder, row: OrderedRow): boolean {
  if (!row.providerStateAt) return false;
  const at = asOf.at.getTime();
  const last = row.providerStateAt.getTime();
  return at < last || (at === last && asOf.sequence < row.providerStateSequence);
}

const LOCAL_STATUSES = ['trialing', 'active', 'past_due', 'paused', 'canceled'] as const;
export type LocalStatus = (typeof LOCAL_STATUSES)[number];
export const isLocalStatus = (s: string): s is LocalStatus => (LOCAL_STATUSES as readonly string[]).includes(s);

export function describeOrder(order: OrderRow) {
  if (order.kind === 'membership')
    return order.plan === 'lifetime' ? 'Lifetime membership' : `Membership (${order.plan ?? 'monthly'})`;
  if (order.kind === 'course') return `Course: ${order.productSlug}`;
  return order.productSlug;
}
export function describeSubscription(sub: SubscriptionRow) {
  return sub.plan === 'yearly' ? 'Yearly membership' : 'Monthly membership';
}

import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import { BILLING_MESSAGES } from '#shared/billing';
import { CANCEL_REASONS, COMMERCE_MESSAGES, SANDBOX_CARDS } from '#shared/commerce';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import { PRODUCT_MESSAGES } from '#shared/products';
import type { ServerProcess } from '#test/server';
import { startTwoProcesses, type TwoProcesses } from '#test/two-processes';
import { BrowserSession } from '#test/browser-session';

/**
 * "At most one", where it matters for money: two real app processes on one fresh PostgreSQL
 * database, one member signed in on both, and 20 requests fired at once, split across the two
 * processes, for each rule: a lifetime membership, a monthly subscription, a copy of the double-kick
 * course (both tiers), a mentorship enrolment, a pause and a retention discount. Exactly one goes
 * through; every other answers 409 with the words the page uses, and both our ledger and the sandbox
 * provider's own records show exactly one.
 *
 * Only PostgreSQL can show the race: the embedded database runs one statement at a time.
 */
const enabled = !!process.env.TEST_DATABASE_URL;
const SKIP_REASON =
  'needs TEST_DATABASE_URL: two app processes racing on one PostgreSQL database (the embedded PGlite runs one statement at a time, so it cannot show the race)';
let processes: TwoProcesses | undefined;
let database: TwoProcesses['database'] | undefined;
const TABS = 20;
const REASON = { reason: CANCEL_REASONS[0].value, reason_description: '' };

let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let db: pg.Client | undefined;

beforeAll(async () => {
  if (!enabled) return;
  // the double-kick course and a mentor come with the demo content
  processes = await startTwoProcesses({ prefix: 'bb_once', demo: true });
  ({ database, a, b, db } = processes);
}, 180_000);

afterAll(async () => {
  await processes?.stop();
});

const count = async (sql: string, params: unknown[]) =>
  Number((await db!.query<{ n: string }>(`select count(*) as n from (${sql}) x`, params)).rows[0]!.n);

let seq = 0;
/** a new member, registered on A; the same session works on B (the store is shared) */
async function member() {
  const s = await BrowserSession.open(a!.url);
  const email = `once-${database!.name}-${++seq}@test.test`;
  expect((await s.register(email)).status).toBe(200);
  return { s, id: await s.userId() };
}

/** what one tab's card form makes: a confirmed sandbox card (4242…) */
async function card(base: string): Promise<string> {
  const setup = (await (await fetch(`${base}/sandbox/test/setup-intents`, { method: 'POST' })).json()) as {
    client_secret: string;
  };
  const res = await fetch(`${base}/sandbox/setup-intents/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_secret: setup.client_secret,
      number: SANDBOX_CARDS.succeeds,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 2,
      cvc: '123',
      name: 'Two Tabs',
    }),
  });
  return ((await res.json()) as { payment_method: string }).payment_method;
}

type Answer = { status: number; message: string };

/**
 * TABS requests at once, alternating between the two processes; each is its own tab (its own
 * idempotency key). `body(i, base)` is what tab i sends.
 */
async function race(s: BrowserSession, path: string, body: (i: number) => Record<string, unknown>): Promise<Answer[]> {
  const run = Math.random().toString(36).slice(2, 10);
  return Promise.all(
    Array.from({ length: TABS }, async (_, i) => {
      const base = i % 2 === 0 ? a!.url : b!.url;
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...s.headers(), 'idempotency-key': `tab-${run}-${i}-attempt` },
        body: JSON.stringify(body(i)),
      });
      const json = (await res.json().catch(() => ({}))) as { message?: string };
      return { status: res.status, message: json.message ?? '' };
    }),
  );
}

/** how the answers came out: exactly one success, every other one 409 with `refusal` */
function expectOneThrough(answers: Answer[], refusal: string) {
  const tally = {
    succeeded: answers.filter((r) => r.status === 200).length,
    refused: answers.filter((r) => r.status === 409 && r.message === refusal).length,
    other: answers
      .filter((r) => r.status !== 200 && !(r.status === 409 && r.message === refusal))
      .map((r) => `${r.status} ${r.message}`),
  };
  expect.soft(tally).toEqual({ succeeded: 1, refused: TABS - 1, other: [] });
}

const chargesOf = (userId: number) =>
  count(`select 1 from sandbox_objects where kind = 'charge' and data->'metadata'->>'userId' = $1`, [String(userId)]);

/** a member with a monthly card subscription (trialing), bought on A */
async function subscriber() {
  const m = await member();
  const res = await m.s.post('/order/stripe', {
    checkout: 'academy',
    plan: 'monthly',
    stripeToken: await card(a!.url),
  });
  expect(res.status).toBe(200);
  const sub = (
    await db!.query<{ id: number; provider_ref: string }>(
      'select id, provider_ref from subscriptions where user_id = $1',
      [m.id],
    )
  ).rows[0]!;
  return { ...m, sub };
}

it('lifetime membership: two tabs (20 at once, two processes) make one order, one membership, one charge', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id } = await member();
  const cards = [await card(a!.url), await card(b!.url)];
  const answers = await race(s, '/order/stripe', (i) => ({
    checkout: 'academy',
    plan: 'lifetime',
    stripeToken: cards[i % 2],
  }));
  expectOneThrough(answers, COMMERCE_MESSAGES.alreadySubscribed);
  expect
    .soft(await count(`select 1 from orders where user_id = $1 and kind = 'membership' and status = 'paid'`, [id]))
    .toBe(1);
  expect
    .soft(
      await count(`select 1 from entitlements where user_id = $1 and kind = 'membership' and revoked_at is null`, [id]),
    )
    .toBe(1);
  expect.soft(await chargesOf(id)).toBe(1);
}, 120_000);

it('monthly membership: one subscription here and one at the provider (a trial that would bill)', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id } = await member();
  const cards = [await card(a!.url), await card(b!.url)];
  const answers = await race(s, '/order/stripe', (i) => ({
    checkout: 'academy',
    plan: 'monthly',
    stripeToken: cards[i % 2],
  }));
  expectOneThrough(answers, COMMERCE_MESSAGES.alreadySubscribed);
  expect.soft(await count(`select 1 from subscriptions where user_id = $1`, [id])).toBe(1);
  expect
    .soft(await count(`select 1 from orders where user_id = $1 and kind = 'membership' and status = 'paid'`, [id]))
    .toBe(1);
  expect
    .soft(
      await count(`select 1 from sandbox_objects where kind = 'subscription' and data->'metadata'->>'userId' = $1`, [
        String(id),
      ]),
    )
    .toBe(1);
}, 120_000);

it('the double-kick course: one paid copy across both tiers, one charge', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id } = await member();
  const cards = [await card(a!.url), await card(b!.url)];
  const tiers = ['doublekick_159', 'doublekick_265'];
  // half the tabs buy the Basic tier, half the Pro: either is the one copy of the course
  const answers = await Promise.all(
    [0, 1].map((t) => race(s, `/api/products/${tiers[t]}/card`, (i) => ({ stripeToken: cards[i % 2] }))),
  );
  const all = answers.flat();
  const tally = {
    succeeded: all.filter((r) => r.status === 200).length,
    refused: all.filter((r) => r.status === 409 && r.message === PRODUCT_MESSAGES.alreadyOwned).length,
  };
  expect.soft(tally).toEqual({ succeeded: 1, refused: 2 * TABS - 1 });
  const course = (await db!.query<{ id: number }>(`select id from courses where slug = 'double-kick-basics'`)).rows[0]!;
  expect
    .soft(await count(`select 1 from orders where user_id = $1 and kind = 'course' and status = 'paid'`, [id]))
    .toBe(1);
  expect
    .soft(
      await count(`select 1 from entitlements where user_id = $1 and kind = $2 and revoked_at is null`, [
        id,
        `course:${course.id}`,
      ]),
    )
    .toBe(1);
  expect.soft(await chargesOf(id)).toBe(1);
}, 120_000);

it('mentorship: one enrolment, one paid order, one charge', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id } = await member();
  const cards = [await card(a!.url), await card(b!.url)];
  const answers = await race(s, '/mentorship/stripe/charge', (i) => ({
    payment: '3200',
    payment_method: cards[i % 2],
  }));
  expectOneThrough(answers, MENTORSHIP_MESSAGES.alreadyEnrolled);
  expect.soft(await count(`select 1 from mentorships where student_id = $1`, [id])).toBe(1);
  expect
    .soft(await count(`select 1 from orders where user_id = $1 and kind = 'mentorship' and status = 'paid'`, [id]))
    .toBe(1);
  expect.soft(await chargesOf(id)).toBe(1);
}, 120_000);

it('pause: one pause of the subscription, here and at the provider', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id, sub } = await subscriber();
  const answers = await race(s, '/account/billing/stripe/pause', () => REASON);
  expectOneThrough(answers, BILLING_MESSAGES.pauseUsed);
  expect
    .soft(await count(`select 1 from cancellation_feedback where user_id = $1 and outcome = 'pause'`, [id]))
    .toBe(1);
  expect
    .soft(
      (await db!.query<{ status: string }>('select status from subscriptions where id = $1', [sub.id])).rows[0]!.status,
    )
    .toBe('paused');
  // the provider was asked to pause once (each pause it applies is one signed event)
  expect
    .soft(
      await count(
        `select 1 from sandbox_objects where kind = 'event' and (data->>'body')::jsonb #>> '{subscription,ref}' = $1 and (data->>'body')::jsonb #>> '{subscription,status}' = 'paused'`,
        [sub.provider_ref],
      ),
    )
    .toBe(1);
}, 120_000);

it('retention discount: applied once, here and at the provider', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const { s, id, sub } = await subscriber();
  const answers = await race(s, '/account/billing/stripe/discount', () => ({ ...REASON, discount: 1 }));
  expectOneThrough(answers, COMMERCE_MESSAGES.discountUsed);
  expect
    .soft(await count(`select 1 from cancellation_feedback where user_id = $1 and outcome = 'discount'`, [id]))
    .toBe(1);
  expect
    .soft(
      await count(
        `select 1 from sandbox_objects where kind = 'idempotency' and id like 'idem:discount:%' and data->>'ref' = $1`,
        [sub.provider_ref],
      ),
    )
    .toBe(1);
}, 120_000);

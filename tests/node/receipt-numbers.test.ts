import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import { SANDBOX_CARDS } from '#shared/commerce';
import type { ServerProcess } from '#test/server';
import { startTwoProcesses, type TwoProcesses } from '#test/two-processes';
import { BrowserSession } from '#test/browser-session';

/**
 * Receipt numbers under concurrency: two real app processes on one fresh PostgreSQL database, and
 * MEMBERS members paying for a lifetime membership at the same moment, split across the processes.
 * Every payment gets a receipt, the numbers are 1..MEMBERS with none used twice and none skipped, and
 * the counter stands at the last one. (docs/product/receipts.md)
 *
 * Only PostgreSQL can show it: the embedded database runs one statement at a time.
 */
const enabled = !!process.env.TEST_DATABASE_URL;
const SKIP_REASON = 'needs TEST_DATABASE_URL: two app processes writing receipts on one PostgreSQL database at once';
const MEMBERS = 16;

let processes: TwoProcesses | undefined;
let database: TwoProcesses['database'] | undefined;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let db: pg.Client | undefined;

beforeAll(async () => {
  if (!enabled) return;
  processes = await startTwoProcesses({ prefix: 'bb_receipts', demo: false });
  ({ database, a, b, db } = processes);
}, 180_000);

afterAll(async () => {
  await processes?.stop();
});

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
      name: 'Many Members',
    }),
  });
  return ((await res.json()) as { payment_method: string }).payment_method;
}

it('members paying at the same moment on two processes get receipts numbered 1..n: none twice, none skipped', async (ctx) => {
  ctx.skip(!enabled, SKIP_REASON);
  const members = [];
  for (let i = 0; i < MEMBERS; i++) {
    const s = await BrowserSession.open(a!.url);
    expect((await s.register(`receipts-${database!.name}-${i}@test.test`, `Member ${i}`)).status).toBe(200);
    members.push({ s, pm: await card(i % 2 === 0 ? a!.url : b!.url) });
  }
  const answers = await Promise.all(
    members.map(({ s, pm }, i) =>
      s
        .send(
          'POST',
          '/order/stripe',
          { checkout: 'academy', plan: 'lifetime', stripeToken: pm },
          { on: i % 2 === 0 ? a!.url : b!.url },
        )
        .then((r) => r.status),
    ),
  );
  expect(answers).toEqual(Array.from({ length: MEMBERS }, () => 200));

  const rows = (
    await db!.query<{ number: number; user_id: number }>(
      `select number, user_id from receipts where kind = 'receipt' order by number`,
    )
  ).rows;
  expect(rows.map((r) => r.number)).toEqual(Array.from({ length: MEMBERS }, (_, i) => i + 1));
  expect(new Set(rows.map((r) => r.user_id)).size).toBe(MEMBERS);
  expect(
    (await db!.query<{ last: number }>(`select last from receipt_counters where series = 'receipt'`)).rows[0]!.last,
  ).toBe(MEMBERS);
  // each member reads exactly their own
  for (const { s } of members) {
    const list = (await (await s.get('/api/billing/receipts', b!.url)).json()) as { data: { number: string }[] };
    expect(list.data).toHaveLength(1);
  }
}, 180_000);

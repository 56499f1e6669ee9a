import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSandboxEvent } from './sandbox/index.ts';
import { isOlderState, stateOrder } from './service.ts';
import { mapStripeEvent } from './stripe/index.ts';

// The order subscription states apply in (docs/product/billing-events.md): the provider's time and
// sequence, as each provider gives them.

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', `${name}.json`), 'utf8');
const at = (iso: string) => new Date(iso);

describe('isOlderState', () => {
  const row = { providerStateAt: at('2027-03-04T10:00:05Z'), providerStateSequence: 7 };

  it('an earlier second is older, whatever its sequence; a later second is newer', () => {
    expect(isOlderState({ at: at('2027-03-04T10:00:04Z'), sequence: 99 }, row)).toBe(true);
    expect(isOlderState({ at: at('2027-03-04T10:00:06Z'), sequence: 0 }, row)).toBe(false);
  });

  it('within the same second the sequence decides; the same state again is not older', () => {
    expect(isOlderState({ at: at('2027-03-04T10:00:05Z'), sequence: 6 }, row)).toBe(true);
    expect(isOlderState({ at: at('2027-03-04T10:00:05Z'), sequence: 7 }, row)).toBe(false);
    expect(isOlderState({ at: at('2027-03-04T10:00:05Z'), sequence: 8 }, row)).toBe(false);
  });

  it('a row that took no dated state yet takes anything', () => {
    expect(
      isOlderState(
        { at: at('2000-01-01T00:00:00Z'), sequence: 0 },
        { providerStateAt: null, providerStateSequence: 0 },
      ),
    ).toBe(false);
  });
});

describe('stateOrder', () => {
  it("keeps the provider's own time and sequence", () => {
    expect(stateOrder({ asOf: { at: at('2027-03-04T10:00:05Z'), sequence: 3 } })).toEqual({
      at: at('2027-03-04T10:00:05Z'),
      sequence: 3,
    });
  });

  it('an undated state is read now, in whole seconds, as new as what the row took in that second', () => {
    const now = at('2027-03-04T10:00:05.900Z');
    expect(stateOrder({}, null, now)).toEqual({ at: at('2027-03-04T10:00:05Z'), sequence: 0 });
    expect(stateOrder({}, { providerStateAt: at('2027-03-04T10:00:05Z'), providerStateSequence: 4 }, now)).toEqual({
      at: at('2027-03-04T10:00:05Z'),
      sequence: 4,
    });
    expect(stateOrder({}, { providerStateAt: at('2027-03-04T10:00:04Z'), providerStateSequence: 4 }, now)).toEqual({
      at: at('2027-03-04T10:00:05Z'),
      sequence: 0,
    });
  });
});

describe('where the time and sequence come from', () => {
  it("Stripe: the event's created, sequence 0", () => {
    const event = mapStripeEvent({
      id: 'evt_9',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1_804_154_405,
      data: { object: JSON.parse(fixture('stripe-subscription')) },
    });
    expect(event).toMatchObject({
      type: 'subscription.updated',
      subscription: { asOf: { at: new Date(1_804_154_405_000), sequence: 0 } },
    });
    const deleted = mapStripeEvent({
      id: 'evt_10',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: 1_804_154_406,
      data: { object: JSON.parse(fixture('stripe-subscription')) },
    });
    expect(deleted).toMatchObject({
      type: 'subscription.canceled',
      subscription: { status: 'canceled', asOf: { at: new Date(1_804_154_406_000), sequence: 0 } },
    });
  });

  it("the sandbox: the event's created and sequence; an event without them is undated", () => {
    const subscription = {
      ref: 'sub_x',
      status: 'active',
      interval: 'month',
      priceCents: 2900,
      currentPeriodEnd: '2027-04-04T10:00:00.000Z',
      trialEndsAt: null,
      cancelAtPeriodEnd: false,
      paymentMethodLabel: 'Visa ending 4242',
    };
    const dated = parseSandboxEvent(
      Buffer.from(
        JSON.stringify({
          id: 'evt_a',
          type: 'subscription.updated',
          created: 1_804_154_405,
          sequence: 12,
          subscription,
        }),
      ),
    );
    expect(dated).toMatchObject({ subscription: { asOf: { at: new Date(1_804_154_405_000), sequence: 12 } } });
    const undated = parseSandboxEvent(
      Buffer.from(JSON.stringify({ id: 'evt_b', type: 'subscription.updated', subscription })),
    );
    expect(undated.type === 'subscription.updated' && undated.subscription.asOf).toBeUndefined();
  });
});

import { z } from './zod.ts';
import { formatMoney } from './money.ts';

// The retention offers admins set (docs/product/retention.md; the setting `retention_offers`, commerce.ts's RETENTION
// by default). Apart from commerce.ts, which the public checkout pages read: they load no zod (scripts/initial-js.ts).

const retentionCents = (label: string) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .int(`The ${label} must be a whole number of cents.`)
    .min(0, `The ${label} may not be negative.`)
    .max(10_000_000, `The ${label} may not be greater than ${formatMoney(10_000_000)}.`);
const pct = (label: string) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .int(`The ${label} must be a whole number.`)
    .min(1, `The ${label} must be at least 1.`)
    .max(100, `The ${label} may not be greater than 100.`);

/** PUT /api/admin/retention (and the stored value): the offers the cancel flow makes */
export const retentionOffersSchema = z.object({
  monthlyDiscountPercent: pct('monthly discount'),
  monthlyDiscountCycles: z
    .number({ error: 'The number of discounted months must be a number.' })
    .int('The number of discounted months must be a whole number.')
    .min(1, 'The number of discounted months must be at least 1.')
    .max(24, 'The number of discounted months may not be greater than 24.'),
  yearlyDiscountCents: retentionCents('yearly discount'),
  yearlyUpgradeDiscountCents: retentionCents('yearly upgrade discount'),
  lifetimeDiscountPercent: pct('lifetime discount'),
  cardPauseFeeCents: retentionCents('card pause fee'),
  paypalPauseFeeCents: retentionCents('PayPal pause fee'),
});
export type RetentionOffers = z.infer<typeof retentionOffersSchema>;

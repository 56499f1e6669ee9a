import { z } from '#shared/zod';
import { formatMoney } from '#shared/money';
import { receiptHref } from '#shared/receipts';
import { defineMail } from '../kind.ts';
import { Action, Facts, Heading, Paragraph } from '../layout.tsx';

/** Billing mail: always sent, never turned off (topic 'billing'): it is about the member's money. */

const money = (cents: number, currency: string) => formatMoney(Math.abs(cents), currency.toUpperCase());

export const receipt = defineMail({
  topic: 'billing',
  label: 'Sent for every payment (its receipt) and every refund (its credit note), within a minute.',
  schema: z.object({
    number: z.string(),
    refund: z.boolean(),
    item: z.string(),
    amountCents: z.number().int(),
    currency: z.string(),
    paymentMethod: z.string(),
    issuedAt: z.iso.datetime(),
  }),
  subject: (d, ctx) =>
    d.refund
      ? `Your ${ctx.academyName} refund of ${money(d.amountCents, d.currency)} (${d.number})`
      : `Your ${ctx.academyName} receipt ${d.number}`,
  preview: (d) =>
    d.refund
      ? `${money(d.amountCents, d.currency)} is on its way back to you.`
      : `${money(d.amountCents, d.currency)} for ${d.item}. Thank you!`,
  body: (d, ctx) => (
    <>
      <Heading>{d.refund ? 'Your refund' : 'Thank you for your payment'}</Heading>
      <Paragraph>
        {d.refund
          ? `Hi ${ctx.name}, we refunded ${money(d.amountCents, d.currency)}${d.paymentMethod ? ` to ${d.paymentMethod}` : ''}. Depending on your bank it can take a few days to show.`
          : `Hi ${ctx.name}, here is your receipt. You can open, print or download it at any time.`}
      </Paragraph>
      <Facts
        rows={[
          [d.refund ? 'Credit note' : 'Receipt', d.number],
          ['For', d.item],
          [d.refund ? 'Refunded' : 'Paid', money(d.amountCents, d.currency)],
          ...(d.paymentMethod ? ([['Method', d.paymentMethod]] as Array<[string, string]>) : []),
          ['Date', ctx.day(d.issuedAt)],
        ]}
      />
      <Action href={ctx.link(receiptHref(d.number))}>{d.refund ? 'View the credit note' : 'View the receipt'}</Action>
    </>
  ),
});

export const trialEnding = defineMail({
  topic: 'billing',
  label: 'Sent 3 days before a free trial ends and the first payment is taken.',
  schema: z.object({
    trialEndsAt: z.iso.datetime(),
    amountCents: z.number().int(),
    currency: z.string(),
    plan: z.string(),
  }),
  subject: (_d, ctx) => `Your ${ctx.academyName} trial ends in 3 days`,
  preview: (d, ctx) =>
    `On ${ctx.day(d.trialEndsAt)} your first payment of ${money(d.amountCents, d.currency)} is taken.`,
  body: (d, ctx) => (
    <>
      <Heading>Your trial ends in 3 days</Heading>
      <Paragraph>
        {`Hi ${ctx.name}, your free trial ends on ${ctx.day(d.trialEndsAt)}. Then your ${d.plan} membership starts and we take the first payment of ${money(d.amountCents, d.currency)}. Nothing to do if you want to keep practising with us.`}
      </Paragraph>
      <Paragraph>To change your plan or cancel before you pay anything, open your billing page.</Paragraph>
      <Action href={ctx.link('/account/billing')}>Open my billing page</Action>
    </>
  ),
});

export const renewalComing = defineMail({
  topic: 'billing',
  label: 'Sent 7 days before a yearly membership renews (the announcement many places require).',
  schema: z.object({
    renewsAt: z.iso.datetime(),
    amountCents: z.number().int(),
    currency: z.string(),
    paymentMethod: z.string(),
  }),
  subject: (_d, ctx) => `Your yearly ${ctx.academyName} membership renews in 7 days`,
  preview: (d, ctx) => `${money(d.amountCents, d.currency)} on ${ctx.day(d.renewsAt)}.`,
  body: (d, ctx) => (
    <>
      <Heading>Your membership renews in 7 days</Heading>
      <Paragraph>
        {`Hi ${ctx.name}, your yearly membership renews on ${ctx.day(d.renewsAt)} for another year. We will take ${money(d.amountCents, d.currency)}${d.paymentMethod ? ` from ${d.paymentMethod}` : ''}.`}
      </Paragraph>
      <Paragraph>
        If you do not want it to renew, cancel on your billing page before that day: you keep access until then.
      </Paragraph>
      <Action href={ctx.link('/account/billing')}>Open my billing page</Action>
    </>
  ),
});

export const paymentFailed = defineMail({
  topic: 'billing',
  label: 'Sent when a membership payment fails (each failed invoice once), with the link to fix it.',
  schema: z.object({
    amountCents: z.number().int(),
    currency: z.string(),
    paymentMethod: z.string(),
    graceEndsAt: z.iso.datetime().nullable(),
  }),
  subject: (_d, ctx) => `Your ${ctx.academyName} payment did not go through`,
  preview: () => 'Update your payment method to keep your membership.',
  body: (d, ctx) => (
    <>
      <Heading>We could not take your payment</Heading>
      <Paragraph>
        {`Hi ${ctx.name}, we could not collect your membership payment of ${money(d.amountCents, d.currency)}${d.paymentMethod ? ` from ${d.paymentMethod}` : ''}.`}{' '}
        {d.graceEndsAt
          ? `You keep your membership until ${ctx.day(d.graceEndsAt)} while we try again; update your payment method or pay now to keep it after that.`
          : 'Update your payment method or pay now to keep your membership.'}
      </Paragraph>
      <Action href={ctx.link('/account/billing')}>Fix my payment</Action>
    </>
  ),
});

export const membershipChanged = defineMail({
  topic: 'billing',
  label: 'Sent when a membership is cancelled, paused or resumed (by the member, an admin or the provider).',
  schema: z.object({
    change: z.enum(['cancelled', 'paused', 'resumed']),
    accessEndsAt: z.iso.datetime().nullable(),
  }),
  subject: (d, ctx) =>
    d.change === 'cancelled'
      ? `Your ${ctx.academyName} membership is cancelled`
      : d.change === 'paused'
        ? `Your ${ctx.academyName} membership is paused`
        : `Your ${ctx.academyName} membership is active again`,
  preview: (d, ctx) =>
    d.accessEndsAt && d.change === 'cancelled'
      ? `You keep access until ${ctx.day(d.accessEndsAt)}.`
      : 'The details of the change.',
  body: (d, ctx) => (
    <>
      <Heading>
        {d.change === 'cancelled'
          ? 'Your membership is cancelled'
          : d.change === 'paused'
            ? 'Your membership is paused'
            : 'Welcome back: your membership is active again'}
      </Heading>
      <Paragraph>
        {d.change === 'cancelled'
          ? `Hi ${ctx.name}, your membership is cancelled and no further payments will be taken.${d.accessEndsAt ? ` You keep access until ${ctx.day(d.accessEndsAt)}.` : ''} We would love to have you back: you can join again from your billing page at any time.`
          : d.change === 'paused'
            ? `Hi ${ctx.name}, your membership is paused: no payments are taken while it is paused. Resume it from your billing page whenever you are ready.`
            : `Hi ${ctx.name}, your membership is active again and payments continue as before. Your lessons, streak and community are waiting.`}
      </Paragraph>
      <Action href={ctx.link('/account/billing')}>Open my billing page</Action>
    </>
  ),
});

export const instalmentReceipt = defineMail({
  topic: 'billing',
  label: 'Sent for each mentorship instalment collected (its receipt).',
  schema: receipt.schema.extend({ paid: z.number().int(), total: z.number().int() }),
  subject: (d, ctx) => `Your ${ctx.academyName} mentorship payment ${d.paid} of ${d.total} (${d.number})`,
  preview: (d) => `${money(d.amountCents, d.currency)} received. Thank you!`,
  body: (d, ctx) => (
    <>
      <Heading>{`Mentorship payment ${d.paid} of ${d.total} received`}</Heading>
      <Paragraph>{`Hi ${ctx.name}, thank you: your mentorship instalment went through.`}</Paragraph>
      <Facts
        rows={[
          ['Receipt', d.number],
          ['For', d.item],
          ['Paid', money(d.amountCents, d.currency)],
          ...(d.paymentMethod ? ([['Method', d.paymentMethod]] as Array<[string, string]>) : []),
          ['Date', ctx.day(d.issuedAt)],
        ]}
      />
      <Action href={ctx.link(receiptHref(d.number))}>View the receipt</Action>
    </>
  ),
});

export const instalmentFailed = defineMail({
  topic: 'billing',
  label: 'Sent when a mentorship instalment fails, with the link to fix it.',
  schema: z.object({ amountCents: z.number().int(), currency: z.string(), paymentMethod: z.string() }),
  subject: (_d, ctx) => `Your ${ctx.academyName} mentorship payment did not go through`,
  preview: () => 'Update your payment method to keep your mentorship.',
  body: (d, ctx) => (
    <>
      <Heading>We could not take your mentorship payment</Heading>
      <Paragraph>
        {`Hi ${ctx.name}, your mentorship instalment of ${money(d.amountCents, d.currency)}${d.paymentMethod ? ` from ${d.paymentMethod}` : ''} did not go through. You keep your mentorship during a short grace period; update your payment method to keep it after that.`}
      </Paragraph>
      <Action href={ctx.link('/mentorship/account')}>Fix my payment</Action>
    </>
  ),
});

import type { MailKindName } from '#server/modules/mail/kinds';
import type { DataOf } from '#server/modules/mail/types';

/**
 * Data for one mail of every kind, as long as real members' (long names, topics, links): the look test
 * renders each (tests/e2e/mail.spec.ts), the link test follows every link in each, and the two-process
 * test asks both processes for each (tests/support/mail-server.ts). `mail.spec.ts` fails while a kind
 * is missing here.
 */
/** the site the samples' absolute links name (the look test renders with it as APP_URL) */
export const SAMPLE_SITE = 'https://academy.backbeat.test';
const LONG_NAME = 'Annabelle Okonkwo-Castellanos';
const LONG_TOPIC =
  'Help: my left-foot heel-toe technique keeps collapsing above 180 bpm on double-bass metal grooves!!';
const EXCERPT =
  'Try slowing it to 150 and keeping the heel down for the first beat of each pair: the collapse usually comes from lifting the whole leg. https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG';
const RECEIPT = {
  number: 'R-000042',
  refund: false,
  item: 'Backbeat membership (yearly), 26 November 2026 to 26 November 2027',
  amountCents: 24000,
  currency: 'usd',
  paymentMethod: 'Visa ending 4242',
  issuedAt: '2026-11-26T13:05:00.000Z',
};
export const MAIL_SAMPLES: { [K in MailKindName]: DataOf<K> } = {
  'account.welcome': {},
  'account.password-reset': { link: `${SAMPLE_SITE}/password/reset/Zm9vYmFyYmF6cXV4`, minutes: 60 },
  'account.password-changed': {
    at: '2026-11-26T13:05:00.000Z',
    how: 'change',
    ip: '2001:db8:85a3:0000:0000:8a2e:0370:7334',
  },
  'account.email-changed': {
    from: 'maximilian.featherstonehaugh-drumwright@example-long-domain.test',
    to: 'max.drums@example.test',
    at: '2026-11-26T13:05:00.000Z',
  },
  'billing.receipt': RECEIPT,
  'billing.trial-ending': {
    trialEndsAt: '2026-11-29T13:05:00.000Z',
    amountCents: 2900,
    currency: 'usd',
    plan: 'monthly',
  },
  'billing.renewal-coming': {
    renewsAt: '2026-12-03T13:05:00.000Z',
    amountCents: 24900,
    currency: 'usd',
    paymentMethod: 'Mastercard ending 5100',
  },
  'billing.payment-failed': {
    amountCents: 2900,
    currency: 'usd',
    paymentMethod: 'Mastercard ending 5100',
    graceEndsAt: '2026-12-10T13:05:00.000Z',
  },
  'billing.membership': { change: 'cancelled', accessEndsAt: '2026-12-26T13:05:00.000Z' },
  'billing.instalment-receipt': {
    ...RECEIPT,
    item: 'Backbeat mentorship: payment 2 of 6',
    amountCents: 41700,
    paid: 2,
    total: 6,
  },
  'billing.instalment-failed': { amountCents: 41700, currency: 'usd', paymentMethod: 'Visa ending 4242' },
  'community.friend-request': { from: LONG_NAME, profile: '/profile/annabelle-okonkwo-castellanos' },
  'community.reply': { from: LONG_NAME, where: LONG_TOPIC, excerpt: EXCERPT, url: '/forums/topic/12#post-340' },
  'community.mention': { from: LONG_NAME, where: LONG_TOPIC, excerpt: EXCERPT, url: '/forums/topic/12#post-341' },
  'community.watched-topic': {
    topic: LONG_TOPIC,
    url: '/forums/topic/12',
    count: 7,
    posts: [
      { from: LONG_NAME, excerpt: EXCERPT, url: '/forums/topic/12#post-342' },
      {
        from: 'Kenji Watanabe',
        excerpt: 'Same here: heel-toe only clicked once I lowered the throne.',
        url: '/forums/topic/12#post-343',
      },
    ],
  },
  'community.live-show-soon': {
    title: 'Live Q&A: odd time signatures, metric modulation and the art of the linear fill (with Dr. Sofia Marangoni)',
    startsAt: '2026-11-26T19:00:00.000Z',
    url: '/live/3',
  },
  'community.wall-comment': {
    from: LONG_NAME,
    wall: 'yours',
    reply: false,
    excerpt: EXCERPT,
    url: '/profile/max#comment-9',
  },
  'mentorship.feedback': {
    video: 'Paradiddle-diddle groove at 96 bpm, second take (left hand leading, ride on the bell)',
    mentor: 'Dr. Sofia Marangoni',
    excerpt: EXCERPT,
    url: '/mentorship/videos/4',
  },
  'mentorship.practice-plan-updated': { mentor: 'Dr. Sofia Marangoni', url: '/mentorship/practice-plan' },
  'digest.weekly': {
    from: '2026-11-16',
    to: '2026-11-22',
    minutes: 245,
    daysPracticed: 5,
    streak: 12,
    longestStreak: 31,
    tempos: [
      {
        exercise: 'Single-stroke roll, sixteenth notes on the practice pad with accents on every third note',
        bpm: 132,
        change: 8,
      },
      { exercise: 'Heel-toe doubles', bpm: 170, change: -4 },
    ],
    topics: [{ title: LONG_TOPIC, url: '/forums/topic/12', posts: 23 }],
  },
};

import { MENTORSHIP_GRACE_DAYS } from '#shared/mentorship';

export type MentorshipStatus = 'active' | 'past_due' | 'defaulted' | 'completed' | 'canceled' | 'refunded';
export type InstalmentPlanStatus = 'active' | 'past_due' | 'defaulted' | 'completed' | 'canceled';

/** What decides a student's mentorship access. */
export interface AccessFacts {
  /** the purchase's order was refunded */
  refunded: boolean;
  /** the instalment plan (PayPal 3/6, card 1800/1300/650); null when paid in full */
  plan: { status: InstalmentPlanStatus; pastDueSince: Date | null; paid: number; total: number } | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The access rules in words: GET /api/mentorship/access-rules and docs/mentorship-payments.md say the same. */
export const MENTORSHIP_ACCESS_RULES: string[] = [
  'A purchase paid in full (one-time card checkout, financing, or a card charge of 3,200 or 2,700) gives mentorship access for good.',
  'An instalment plan (PayPal 3 or 6 payments, card 2, 3 or 6 monthly payments) gives access from its first paid instalment while its payments are up to date.',
  `A missed instalment keeps access for ${MENTORSHIP_GRACE_DAYS} days while the provider retries; the student and every admin are told at once.`,
  `An instalment more than ${MENTORSHIP_GRACE_DAYS} days late ends access (the plan is "defaulted"); the student and every admin are told. A later successful payment restores access.`,
  'When the last instalment is paid the plan is complete: the provider subscription is cancelled and access is kept for good.',
  'When the provider cancels an instalment plan before its last payment (the student cancelled at PayPal, or the retries ran out), access ends.',
  'A refunded purchase ends access.',
  'Admins (mentors) always have access to the mentorship area.',
];

/**
 * THE mentorship access rules, in one function: from the purchase's facts, the
 * mentorship's status and whether the student may use the mentorship area now.
 *
 * - refunded purchase → `refunded`, no access;
 * - paid in full (no instalment plan) → `active`, access for good;
 * - plan completed (or every instalment paid) → `completed`, access for good;
 * - plan cancelled by the provider before completion → `canceled`, no access;
 * - plan defaulted → `defaulted`, no access (a later successful payment sets the plan active again);
 * - plan past due: within MENTORSHIP_GRACE_DAYS of the first missed payment → `past_due` with
 *   access; later → `defaulted`, no access;
 * - plan active → `active`, access.
 *
 * Admins hold every entitlement anyway (guards.hasEntitlement). The sweep and every payment event
 * call this through enrolment.applyAccess; MENTORSHIP_ACCESS_RULES states the same in words.
 */
export function mentorshipAccess(
  facts: AccessFacts,
  now: Date = new Date(),
): { status: MentorshipStatus; access: boolean } {
  if (facts.refunded) return { status: 'refunded', access: false };
  const plan = facts.plan;
  if (!plan) return { status: 'active', access: true };
  if (plan.status === 'completed' || plan.paid >= plan.total) return { status: 'completed', access: true };
  if (plan.status === 'canceled') return { status: 'canceled', access: false };
  if (plan.status === 'defaulted') return { status: 'defaulted', access: false };
  if (plan.status === 'past_due') {
    const since = plan.pastDueSince ?? now;
    if (now.getTime() - since.getTime() > MENTORSHIP_GRACE_DAYS * DAY_MS) return { status: 'defaulted', access: false };
    return { status: 'past_due', access: true };
  }
  return { status: 'active', access: true };
}

/** the last day of the grace period of a plan past due since `since` */
export const graceEndsAt = (since: Date) => new Date(since.getTime() + MENTORSHIP_GRACE_DAYS * DAY_MS);

import { z } from '#shared/zod';
import { MENTORSHIP_MESSAGES } from '#shared/mentorship';
import type { Database } from '#server/db/client';
import type { Jobs } from '#server/lib/jobs';
import type { PaymentsService } from '#server/modules/payments/index';
import type { NotificationService } from '#server/modules/notifications/index';
import { createEnrolment } from './enrolment.ts';
import { createInstalments } from './instalments.ts';
import { createMentorshipCheckoutService } from './service.ts';

/** the grace sweep: a recurring background job, hourly (it is cheap: past-due plans only) */
export const GRACE_SWEEP_JOB = 'mentorship.grace-sweep';
export const GRACE_SWEEP_CRON = '17 * * * *';

export interface MentorshipCheckoutModuleDeps {
  db: Database;
  payments: PaymentsService;
  notifications: NotificationService;
  jobs: Jobs;
  log: { error(obj: object, msg: string): void };
}

/**
 * Mentorship checkout (docs/product/mentorship.md): hosted card checkout, PayPal and card instalments,
 * the card charge and enrolment. Mentorship orders and instalment subscriptions go through the payments
 * ledger's one dispatch table, and the instalments' grace sweep is a recurring background job.
 */
export function createMentorshipCheckout(deps: MentorshipCheckoutModuleDeps) {
  const { db, payments, notifications, jobs, log } = deps;
  const enrolment = createEnrolment({ db, notifications });
  const instalments = createInstalments({ db, payments, enrolment, log });
  const checkout = createMentorshipCheckoutService({ db, payments, enrolment, instalments });

  payments.registerOwner({
    orderKind: 'mentorship',
    orderPaid: (order) => checkout.orderPaid(order),
    orderRefunded: (order) => checkout.orderRefunded(order),
    subscriptionEvent: (provider, event) => instalments.handleEvent(provider, event),
    // one mentorship per member: a second purchase is refused before its card is charged
    hold: {
      scope: () => 'mentorship',
      owned: (tx, order) => enrolment.holdsMentorship(order.userId, tx),
      refusal: MENTORSHIP_MESSAGES.alreadyEnrolled,
    },
  });
  // once an hour across all app processes (a failure is retried, then shown to admins)
  jobs.define(GRACE_SWEEP_JOB, z.object({}), () => instalments.sweep(), {
    label: 'Mentorship instalments: end plans past their grace period',
  });
  jobs.schedule(GRACE_SWEEP_JOB, GRACE_SWEEP_CRON);

  return { checkout, enrolment, instalments };
}
export type MentorshipCheckoutModule = ReturnType<typeof createMentorshipCheckout>;

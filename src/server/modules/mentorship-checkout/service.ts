import type { OrderRow } from '#server/modules/payments/index';
import type { AuthUser } from '#server/types';
import type { MentorshipCheckoutAnswer } from '#shared/mentorship';
import { createCardCharge } from './card.ts';
import { createHostedCheckout } from './hosted.ts';
import { createMentorshipOrders, type MentorshipCheckoutDeps } from './orders.ts';
import { createPaypalInstalments } from './paypal.ts';

export { alreadyEnrolled, MENTORSHIP_HOME, type MentorshipCheckoutDeps } from './orders.ts';

/**
 * The mentorship checkout (docs/product/mentorship.md): one-time payments on the card
 * provider's hosted checkout, PayPal instalment subscriptions, card charges and card instalment
 * subscriptions at /mentorship/stripe/{payment}. Every paying call is one order per idempotency
 * key (a double submit answers what the first did); amounts come from src/shared/mentorship-checkout.ts,
 * never from the browser. Enrolment happens when the order is paid (the ledger's owner hook).
 */
export function createMentorshipCheckoutService(deps: MentorshipCheckoutDeps) {
  const { enrolment } = deps;
  const steps = createMentorshipOrders(deps);
  const { isEnrolled } = steps;

  return {
    /** GET /api/mentorship/checkout */
    async checkout(user: AuthUser | null): Promise<MentorshipCheckoutAnswer> {
      return {
        user: user ? { name: user.name, email: user.email } : null,
        enrolled: user ? await isEnrolled(user) : false,
      };
    },

    ...createHostedCheckout(deps, steps),
    ...createPaypalInstalments(deps, steps),
    ...createCardCharge(deps, steps),

    /** the ledger's owner hook: a mentorship order is paid → enrol (idempotent) */
    async orderPaid(order: OrderRow) {
      await enrolment.enrol(order);
    },

    /** the ledger's owner hook: refunded → the access rules end access */
    async orderRefunded(order: OrderRow) {
      await enrolment.applyAccess(order.userId);
    },
  };
}
export type MentorshipCheckoutService = ReturnType<typeof createMentorshipCheckoutService>;

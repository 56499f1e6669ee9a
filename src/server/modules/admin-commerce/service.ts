import type { Database } from '#server/db/client';
import type { PaymentsService } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';
import { createAdminOrders } from './orders.ts';
import { createAdminPlans } from './plans.ts';
import { createAdminProducts } from './products.ts';
import { createAdminSubscriptions } from './subscriptions.ts';
import { createAdminWebhookFailures } from './webhooks.ts';

export { planDto } from './plans.ts';

/** The admin console's commerce area. Lists page, sort and search in SQL; every change is audited. */
export function createAdminCommerceService(deps: { db: Database; payments: PaymentsService; users: UserService }) {
  return {
    ...createAdminOrders(deps),
    ...createAdminSubscriptions(deps),
    ...createAdminPlans(deps),
    ...createAdminProducts(deps),
    ...createAdminWebhookFailures(deps),
  };
}
export type AdminCommerceService = ReturnType<typeof createAdminCommerceService>;

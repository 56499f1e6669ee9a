import type { Database } from '#server/db/client';
import type { PaymentsService } from '#server/modules/payments/index';
import type { UserService } from '#server/modules/users/index';
import { createCatalogue } from './catalogue.ts';
import { createOwnership } from './ownership.ts';
import { createPurchases } from './purchase.ts';
import { createSpots } from './spots.ts';

export { priceHtml } from './catalogue.ts';
export { alreadyOwned } from './purchase.ts';
export { RESERVATION_MINUTES, soldOut } from './spots.ts';

/**
 * Double-kick and course tiers (docs/product/course-products.md): the catalogue, buying one by card or PayPal through
 * the payments ledger. Spots are held by the pending order from the moment the buyer pays until it
 * is paid or fails, under a lock on the product row, so the last spot goes to one buyer only and the
 * other is refused before anything is charged.
 */
export function createProductService(deps: { db: Database; payments: PaymentsService; users: UserService }) {
  const spots = createSpots(deps);
  const owns = createOwnership(deps);
  return {
    ...createCatalogue(deps, spots, owns),
    ...createPurchases(deps, spots, owns),
  };
}
export type ProductService = ReturnType<typeof createProductService>;

/** The admin-commerce module's front door: what other modules and the app may use of it. */
export { adminCommerceRoutes } from './routes.ts';
export { createAdminCommerceService } from './service.ts';
export { createSubscriptionRefunds } from './refunds.ts';

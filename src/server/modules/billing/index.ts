/** The billing module's front door: what other modules and the app may use of it. */
export { billingRoutes } from './routes.ts';
export { createBillingService } from './service.ts';

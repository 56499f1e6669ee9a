/** The checkout module's front door: what other modules and the app may use of it. */
export { checkoutRoutes } from './routes.ts';
export { createCheckoutService } from './service.ts';

/** The payments module's front door: what other modules and the app may use of it. */
export {
  cardError,
  type ChargeResult,
  type Interval,
  type PaymentProvider,
  ProviderError,
  type SubscriptionState,
} from './provider.ts';
export { createProviders } from './providers.ts';
export { paymentRoutes } from './routes.ts';
export { type SandboxProvider } from './sandbox/index.ts';
export {
  createPaymentsService,
  HOLD_MINUTES,
  type OrderRow,
  type PaymentsService,
  type SubscriptionEvent,
  type SubscriptionRow,
} from './service.ts';

// The commerce pages of the admin console, loaded together on first visit (see ./routes.tsx).
export { OrdersPage } from './orders.tsx';
export { SubscriptionsPage } from './subscriptions.tsx';
export { PlansPage } from './plans.tsx';
export { ProductsPage } from './products.tsx';
export { MentorshipPricingPage } from './mentorship-pricing.tsx';
export { RetentionPage } from './retention.tsx';
export { CancellationsPage } from './cancellations.tsx';

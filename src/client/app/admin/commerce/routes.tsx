import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lazy-routes.tsx';

// one loader per module: the built page keeps one copy of each module's preload list
const pagesModule = () => import('./pages.tsx');
const receiptSellerModule = () => import('./receipt-seller.tsx');
const webhooksModule = () => import('./webhooks.tsx');

/** Admin console pages: commerce. Each page is loaded on first visit (see ../../lazy-routes.tsx). */
export const commerceRoutes: RouteObject[] = [
  { path: '/admin/orders', lazy: lazyPage(pagesModule, 'OrdersPage') },
  { path: '/admin/subscriptions', lazy: lazyPage(pagesModule, 'SubscriptionsPage') },
  { path: '/admin/plans', lazy: lazyPage(pagesModule, 'PlansPage') },
  { path: '/admin/products', lazy: lazyPage(pagesModule, 'ProductsPage') },
  { path: '/admin/mentorship-pricing', lazy: lazyPage(pagesModule, 'MentorshipPricingPage') },
  { path: '/admin/retention', lazy: lazyPage(pagesModule, 'RetentionPage') },
  { path: '/admin/cancellations', lazy: lazyPage(pagesModule, 'CancellationsPage') },
  { path: '/admin/receipts', lazy: lazyPage(receiptSellerModule, 'ReceiptSellerPage') },
  { path: '/admin/webhook-failures', lazy: lazyPage(webhooksModule, 'WebhookFailuresPage') },
];

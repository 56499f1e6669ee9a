import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy.ts';

/** Admin console pages: commerce. Each page is loaded on first visit (see ../lazy.ts). */
export const commerceRoutes: RouteObject[] = [
  { path: '/admin/orders', lazy: lazyPage(() => import('./pages.tsx'), 'OrdersPage') },
  { path: '/admin/subscriptions', lazy: lazyPage(() => import('./pages.tsx'), 'SubscriptionsPage') },
  { path: '/admin/plans', lazy: lazyPage(() => import('./pages.tsx'), 'PlansPage') },
  { path: '/admin/products', lazy: lazyPage(() => import('./pages.tsx'), 'ProductsPage') },
  { path: '/admin/mentorship-pricing', lazy: lazyPage(() => import('./pages.tsx'), 'MentorshipPricingPage') },
  { path: '/admin/retention', lazy: lazyPage(() => import('./pages.tsx'), 'RetentionPage') },
  { path: '/admin/cancellations', lazy: lazyPage(() => import('./pages.tsx'), 'CancellationsPage') },
  { path: '/admin/receipts', lazy: lazyPage(() => import('./receipt-seller.tsx'), 'ReceiptSellerPage') },
  { path: '/admin/webhook-failures', lazy: lazyPage(() => import('./webhooks.tsx'), 'WebhookFailuresPage') },
];

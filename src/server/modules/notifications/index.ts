/** The notifications module's front door: what other modules and the app may use of it. */
export { notificationRoutes } from './routes.ts';
export { createNotificationService, type NotificationService } from './service.ts';

/** The auth module's front door: what other modules and the app may use of it. */
export { authRoutes } from './routes.ts';
export { createAuthService, hashPassword } from './service.ts';

/** The products module's front door: what other modules and the app may use of it. */
export { productRoutes } from './routes.ts';
export { createProductService } from './service.ts';

/** The uploads module's front door: what other modules and the app may use of it. */
export { uploadRoutes } from './routes.ts';
export { createUploadService, type UploadService } from './service.ts';

/** The rewards module's front door: what other modules and the app may use of it. */
export { rewardsRoutes } from './routes.ts';
export { createRewardsService, type RewardsService } from './service.ts';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { achievementsResponseSchema } from '#shared/rewards';
import { requireUser } from '#server/lib/guards';

export const rewardsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.deps.services.rewards.ensureDefaults();
  app.get(
    '/api/achievements',
    { config: { access: 'member' }, schema: { response: { 200: achievementsResponseSchema } } },
    async (request) => app.deps.services.rewards.overview(requireUser(request).id),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema } from '#shared/http';
import {
  playlistCreateSchema,
  playlistDeletedSchema,
  playlistEntryResponseSchema,
  playlistResponseSchema,
  playlistUpdateSchema,
} from '#shared/metronome';
import { requireUser } from '#server/lib/guards';

/**
 * A member's saved metronome settings at `/api/metronome_settings/` (docs/product/metronome.md).
 * Each member sees and changes only their own entries; visitors keep theirs in the
 * browser.
 */
export const metronomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { metronome } = app.deps.services;
  const params = z.object({ id: idSchema });

  app.get(
    '/api/metronome_settings',
    { config: { access: 'member' }, schema: { response: { 200: playlistResponseSchema } } },
    async (request) => ({ data: await metronome.list(requireUser(request).id) }),
  );

  app.post(
    '/api/metronome_settings',
    {
      config: { access: 'member' },
      schema: { body: playlistCreateSchema, response: { 201: playlistEntryResponseSchema } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return reply.status(201).send({ data: await metronome.create(user.id, request.body) });
    },
  );

  app.patch(
    '/api/metronome_settings/:id',
    {
      config: { access: 'member' },
      schema: { params, body: playlistUpdateSchema, response: { 200: playlistEntryResponseSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      return { data: await metronome.update(user.id, request.params.id, request.body) };
    },
  );

  app.delete(
    '/api/metronome_settings/:id',
    { config: { access: 'member' }, schema: { params, response: { 200: playlistDeletedSchema } } },
    async (request) => {
      const user = requireUser(request);
      await metronome.remove(user.id, request.params.id);
      return { deleted: true as const };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import { idSchema, redirectAnswerSchema } from '#shared/http';
import {
  saveSongBodySchema,
  saveTemplateBodySchema,
  SONG,
  songIdSchema,
  songListResponseSchema,
  songResponseSchema,
  songSavedSchema,
  songTemplatesResponseSchema,
} from '#shared/songmapper';
import { notFound } from '#server/lib/errors';
import { requireUser } from '#server/lib/guards';
import { redirectOrJson } from '#server/lib/http';
import { overridableRoute } from '#server/lib/method-override';
import { fileResponse, redirectResponse } from '#server/lib/responses';
import { songPdf } from './pdf.ts';

const idParams = z.object({ id: songIdSchema });

/** An ASCII file name for the download, from the title. */
export const pdfFileName = (title: string) =>
  `${
    title
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/[\s-]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'song-map'
  }.pdf`;

/** The song mapper calls (docs/product/song-mapper.md), plus the list, one song, and deleting a template. */
export const songmapperRoutes: FastifyPluginAsyncZod = async (app) => {
  const { limiters } = app.deps;
  const { songs } = app.deps.services;

  app.get(
    '/api/songmapper',
    { config: { access: 'member' }, schema: { response: { 200: songListResponseSchema } } },
    async (request) => ({ data: await songs.list(requireUser(request).id) }),
  );
  app.get(
    '/api/songmapper/:id',
    { config: { access: 'member' }, schema: { params: idParams, response: { 200: songResponseSchema } } },
    async (request) => ({ data: await songs.get(requireUser(request).id, request.params.id) }),
  );

  // autosave: the first save (no id) answers the new id
  app.post(
    '/songmapper',
    { config: { access: 'member' }, schema: { body: saveSongBodySchema, response: { 200: songSavedSchema } } },
    async (request) => {
      const user = requireUser(request);
      if (!request.body.id) await limiters.consume('songsPerUser', String(user.id));
      return songs.save(user.id, request.body.id, request.body.song);
    },
  );

  app.get(
    '/songmapper/templates',
    { config: { access: 'member' }, schema: { response: { 200: songTemplatesResponseSchema } } },
    async (request) => ({ templates: await songs.templates(requireUser(request).id) }),
  );
  app.post(
    '/songmapper/templates',
    {
      config: { access: 'member' },
      schema: { body: saveTemplateBodySchema, response: { 200: songTemplatesResponseSchema } },
    },
    async (request) => ({
      templates: await songs.saveTemplate(requireUser(request).id, request.body.title, request.body.song),
    }),
  );
  app.delete(
    '/songmapper/templates/:id',
    {
      config: { access: 'member' },
      schema: { params: z.object({ id: idSchema }), response: { 200: songTemplatesResponseSchema } },
    },
    async (request) => ({
      templates: await songs.removeTemplate(requireUser(request).id, request.params.id),
    }),
  );

  // POST /songmapper/{id} with _method: delete; then the page navigates away
  overridableRoute(app, '/songmapper/:id', 'member', {
    DELETE: {
      response: { 200: redirectAnswerSchema, ...redirectResponse(303) },
      handler: async (request, reply) => {
        const user = requireUser(request);
        const id = songIdSchema.safeParse((request.params as { id?: string }).id);
        if (!id.success) throw notFound();
        await songs.remove(user.id, id.data);
        return redirectOrJson(request, reply, '/songmapper');
      },
    },
  });

  // the share link: a real PDF for anyone holding the (unguessable) id
  app.get(
    '/songmapper/pdf/:id',
    {
      config: { access: 'public' },
      schema: { params: idParams, response: fileResponse('The song map as a PDF') },
    },
    async (request, reply) => {
      await limiters.consume('songPdfPerIp', request.ip);
      const row = await songs.shared(request.params.id);
      const pdf = await songPdf(row.song, { updatedAt: row.updatedAt });
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="${pdfFileName(row.title || SONG.untitled)}"`)
        .header('Cache-Control', 'private, no-store')
        .header('X-Robots-Tag', 'noindex')
        .send(pdf);
    },
  );
};

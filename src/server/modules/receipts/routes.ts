import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/zod';
import {
  DEFAULT_RECEIPT_SELLER,
  RECEIPT_SELLER_SETTING,
  receiptListSchema,
  receiptSchema,
  receiptSellerSchema,
} from '#shared/receipts';
import { requireUser } from '#server/lib/guards';
import { adminActor } from '#server/lib/guards';
import { fileResponse } from '#server/lib/responses';

const numberParams = z.object({ number: z.string().trim().min(1).max(20) });

/** Receipts and credit notes (docs/product/receipts.md): the member's list, one document, its PDF; the seller they name. */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  const receipts = app.deps.services.receipts;
  const { settings } = app.deps.services;

  app.get(
    '/api/billing/receipts',
    { config: { access: 'member' }, schema: { response: { 200: receiptListSchema } } },
    async (request) => ({ data: await receipts.list(requireUser(request)) }),
  );
  app.get(
    '/api/billing/receipts/:number',
    { config: { access: 'member' }, schema: { params: numberParams, response: { 200: receiptSchema } } },
    async (request) => receipts.detail(requireUser(request), request.params.number),
  );
  app.get(
    '/api/billing/receipts/:number/pdf',
    {
      config: { access: 'member' },
      schema: { params: numberParams, response: fileResponse('The receipt or credit note as a PDF') },
    },
    async (request, reply) => {
      const { receipt, pdf } = await receipts.pdf(requireUser(request), request.params.number);
      const name = `${receipt.kind === 'credit_note' ? 'credit-note' : 'receipt'}-${receipt.number}.pdf`;
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'private, no-store')
        .header('X-Robots-Tag', 'noindex')
        .send(pdf);
    },
  );

  // who the receipts say sold (name, address) and the tax line; each receipt keeps what it said when issued
  app.get(
    '/api/admin/receipt-seller',
    { config: { access: 'admin' }, schema: { response: { 200: receiptSellerSchema } } },
    async () => settings.get(RECEIPT_SELLER_SETTING, receiptSellerSchema, DEFAULT_RECEIPT_SELLER),
  );
  app.put(
    '/api/admin/receipt-seller',
    { config: { access: 'admin' }, schema: { body: receiptSellerSchema, response: { 200: receiptSellerSchema } } },
    async (request) =>
      settings.set(
        adminActor(request),
        RECEIPT_SELLER_SETTING,
        receiptSellerSchema,
        DEFAULT_RECEIPT_SELLER,
        request.body,
      ),
  );
};

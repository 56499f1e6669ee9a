import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from '#shared/zod';
import { createResponseSerializer, droppedFields } from './response-serializer.ts';

const member = z.object({ id: z.number(), name: z.string(), joined: z.string() });

async function appAnswering(refuseUnlistedFields: boolean, answer: unknown, errors: unknown[] = []) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler((err, _req, reply) => {
    errors.push(err);
    return reply.status(500).send({ message: 'failed' });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializer({ refuseUnlistedFields }));
  app.get('/member', { schema: { response: { 200: z.object({ data: member }) } } }, async () => answer as never);
  await app.ready();
  return app;
}

const withSecret = { data: { id: 7, name: 'Ana', joined: '2026-01-02T00:00:00.000Z', password_hash: 'x' } };

describe('answers written through the response schema', () => {
  it('in production sends only the listed fields', async () => {
    const app = await appAnswering(false, withSecret);
    const res = await app.inject('/member');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: 7, name: 'Ana', joined: '2026-01-02T00:00:00.000Z' } });
  });

  it('outside production refuses an answer with a field the schema leaves out, naming it', async () => {
    const errors: unknown[] = [];
    const app = await appAnswering(true, withSecret, errors);
    expect((await app.inject('/member')).statusCode).toBe(500);
    expect(JSON.stringify((errors[0] as { cause: unknown }).cause)).toContain('data.password_hash');
  });

  it('outside production sends an answer that fits', async () => {
    const app = await appAnswering(true, { data: { ...withSecret.data, password_hash: undefined } });
    const res = await app.inject('/member');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Ana');
  });
});

describe('droppedFields', () => {
  it('walks arrays and nested objects, and does not look into transformed values', () => {
    expect(droppedFields({ a: [{ b: 1, c: 2 }], d: { e: 1 } }, { a: [{ b: 1 }], d: 'e' })).toEqual(['a[0].c']);
    expect(droppedFields({ when: new Date(0) }, { when: '1970-01-01T00:00:00.000Z' })).toEqual([]);
  });
});

import { expect, it } from 'vitest';
import { FIELD_MESSAGES } from './constants.ts';
import { registerBodySchema } from './auth.ts';

it('accepts form flags for the checkout sign-ups', () => {
  const parsed = registerBodySchema.parse({
    name: ' Ann ',
    email: 'a@b.test',
    email_confirmation: 'A@B.test',
    password: '12345678',
    mentorship_signup: '1',
  });
  expect(parsed).toMatchObject({ name: 'Ann', mentorship_signup: true });
});

it('password of 7 characters fails with the spec minimum', () => {
  const r = registerBodySchema.safeParse({
    name: 'A',
    email: 'a@b.test',
    email_confirmation: 'a@b.test',
    password: '1234567',
  });
  expect(r.success).toBe(false);
  expect(r.error!.issues[0]!.message).toBe(FIELD_MESSAGES.passwordMin);
});

import type { contactBodySchema } from '#shared/learning';
import type { z } from '#shared/zod';
import type { Database } from '#server/db/client';
import { contactMessages } from '#server/db/schema/index';

/**
 * A member's message from the contact form or the student review modal, kept for staff to read.
 * The modal marks a review with studentReview; a review without a subject gets a generic one.
 */
export async function sendContactMessage(
  db: Database,
  userId: number,
  input: z.output<typeof contactBodySchema>,
): Promise<void> {
  const review = input.studentReview === '1' || input.studentReview === 1 || input.studentReview === true;
  await db.insert(contactMessages).values({
    userId,
    kind: review ? 'review' : 'contact',
    subject: input.subject || (review ? 'Student review' : ''),
    body: input.body,
  });
}

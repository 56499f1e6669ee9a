import { z } from '#shared/zod';
import { defineMail } from '../kind.ts';
import { Action, Heading, Paragraph } from '../layout.tsx';
import { Quote } from './community.tsx';

/** Mentorship mail a student can turn off (its topic on the notification settings page). */

export const mentorFeedback = defineMail({
  topic: 'mentor-feedback',
  label: 'Sent when your mentor gives (or revises) feedback on a practice video you sent.',
  schema: z.object({
    video: z.string().min(1).max(200),
    mentor: z.string().min(1).max(200),
    excerpt: z.string().max(400),
    url: z.string().startsWith('/').max(500),
  }),
  subject: (d) => `${d.mentor} answered your practice video`,
  preview: (d) => d.excerpt || `Feedback on ${d.video}.`,
  body: (d, ctx) => (
    <>
      <Heading>Feedback on {d.video}</Heading>
      <Paragraph>
        Hi {ctx.name}, {d.mentor} watched your practice video &quot;{d.video}&quot; and wrote:
      </Paragraph>
      <Quote>{d.excerpt}</Quote>
      <Action href={ctx.link(d.url)}>Read the feedback</Action>
    </>
  ),
});

export const practicePlanUpdated = defineMail({
  topic: 'practice-plan',
  label: 'Sent when your mentor changes your practice plan (at most once an hour).',
  schema: z.object({ mentor: z.string().min(1).max(200), url: z.string().startsWith('/').max(500) }),
  subject: (d) => `${d.mentor} updated your practice plan`,
  preview: () => 'Your next practice sessions are ready.',
  body: (d, ctx) => (
    <>
      <Heading>Your practice plan was updated</Heading>
      <Paragraph>
        Hi {ctx.name}, {d.mentor} made changes to your practice plan. Have a look before your next session.
      </Paragraph>
      <Action href={ctx.link(d.url)}>Open my practice plan</Action>
    </>
  ),
});

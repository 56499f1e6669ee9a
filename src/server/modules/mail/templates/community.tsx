import { z } from '#shared/zod';
import { defineMail } from '../kind.ts';
import { Action, Heading, InlineLink, Paragraph } from '../layout.tsx';

/** Community mail: each can be turned off (its topic on the notification settings page). */

export const friendRequest = defineMail({
  topic: 'friend-requests',
  label: 'Sent when another member asks to be friends.',
  schema: z.object({ from: z.string().min(1).max(200), profile: z.string().startsWith('/') }),
  subject: (d) => `${d.from} wants to be your friend`,
  preview: (d) => `${d.from} sent you a friend request.`,
  body: (d, ctx) => (
    <>
      <Heading>{d.from} sent you a friend request</Heading>
      <Paragraph>
        Hi {ctx.name}, {d.from} would like to be friends. Friends see each other&apos;s practice and can write on each
        other&apos;s walls.
      </Paragraph>
      <Action href={ctx.link('/friends')}>Answer the request</Action>
      <Paragraph muted>
        Not sure who this is? Have a look at <InlineLink href={ctx.link(d.profile)}>{d.from}&apos;s profile</InlineLink>{' '}
        first.
      </Paragraph>
    </>
  ),
});

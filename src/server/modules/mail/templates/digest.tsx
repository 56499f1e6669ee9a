import { z } from '#shared/zod';
import { defineMail } from '../kind.ts';
import { Action, Facts, Heading, InlineLink, Paragraph, Rule } from '../layout.tsx';

/** The weekly digest: e-mail only, off until the member turns it on. */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const weeklyDigest = defineMail({
  topic: 'digest',
  label: 'Sent once a week (Monday morning, UTC) to members who turned the weekly digest on.',
  schema: z.object({
    /** the week's Monday and Sunday (calendar days) */
    from: z.iso.date(),
    to: z.iso.date(),
    minutes: z.number().int().min(0),
    daysPracticed: z.number().int().min(0).max(7),
    streak: z.number().int().min(0),
    longestStreak: z.number().int().min(0),
    tempos: z
      .array(z.object({ exercise: z.string().min(1).max(200), bpm: z.number().positive(), change: z.number() }))
      .max(6),
    topics: z
      .array(z.object({ title: z.string().min(1).max(200), url: z.string().startsWith('/'), posts: z.number() }))
      .max(5),
  }),
  subject: (d, ctx) =>
    d.minutes > 0
      ? `Your week at ${ctx.academyName}: ${plural(d.minutes, 'minute', 'minutes')} of practice`
      : `Your week at ${ctx.academyName}`,
  preview: (d) =>
    d.minutes > 0
      ? `${plural(d.daysPracticed, 'day', 'days')} at the kit, a ${plural(d.streak, 'day', 'days')} streak.`
      : 'A new week is a good time to get back to the kit.',
  body: (d, ctx) => (
    <>
      <Heading>Your practice week</Heading>
      <Paragraph>
        Hi {ctx.name}, here is your week from {ctx.day(`${d.from}T12:00:00Z`)} to {ctx.day(`${d.to}T12:00:00Z`)}.
      </Paragraph>
      <Facts
        rows={[
          ['Minutes practised', String(d.minutes)],
          ['Days practised', `${d.daysPracticed} of 7`],
          ['Current streak', plural(d.streak, 'day', 'days')],
          ['Longest streak', plural(d.longestStreak, 'day', 'days')],
        ]}
      />
      {d.tempos.length > 0 ? (
        <>
          <Paragraph>Your tempos this week:</Paragraph>
          <Facts
            rows={d.tempos.map((t) => [
              t.exercise,
              `${t.bpm} bpm${t.change > 0 ? ` (up ${t.change})` : t.change < 0 ? ` (down ${-t.change})` : ''}`,
            ])}
          />
        </>
      ) : null}
      {d.minutes === 0 ? (
        <Paragraph>
          No practice logged this week. Even ten minutes with the metronome keeps your hands in shape.
        </Paragraph>
      ) : null}
      <Action href={ctx.link('/dashboard')}>Open my dashboard</Action>
      {d.topics.length > 0 ? (
        <>
          <Rule />
          <Heading>Busiest in the forums</Heading>
          {d.topics.map((t) => (
            <Paragraph key={t.url}>
              <InlineLink href={ctx.link(t.url)}>{t.title}</InlineLink> ({plural(t.posts, 'new post', 'new posts')})
            </Paragraph>
          ))}
        </>
      ) : null}
    </>
  ),
});

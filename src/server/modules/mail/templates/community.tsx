import { Section, Text } from '../components.ts';
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

const name = z.string().min(1).max(200);
const path = z.string().startsWith('/').max(500);
/** a few words of what was written, as plain text (React escapes it) */
const excerpt = z.string().max(400);

/** what someone wrote, set apart from the mail's own words */
export function Quote(props: { children: string }) {
  if (!props.children) return null;
  return (
    <Text
      className="bb-muted"
      style={{
        fontSize: '16px',
        lineHeight: '26px',
        color: '#57534e',
        margin: '0 0 16px',
        padding: '4px 0 4px 14px',
        borderLeft: '3px solid #e7e5e4',
        whiteSpace: 'pre-line',
        // a pasted link or a long word wraps instead of widening the mail past a phone's screen
        overflowWrap: 'anywhere',
        wordBreak: 'break-word',
      }}
    >
      {props.children}
    </Text>
  );
}

export const reply = defineMail({
  topic: 'replies',
  label: 'Sent when another member replies to your post or comment.',
  schema: z.object({ from: name, where: name, excerpt, url: path }),
  subject: (d) => `${d.from} replied to you in ${d.where}`,
  preview: (d) => d.excerpt || `${d.from} replied to your post.`,
  body: (d, ctx) => (
    <>
      <Heading>{d.from} replied to you</Heading>
      <Paragraph>
        Hi {ctx.name}, {d.from} replied to your post in <InlineLink href={ctx.link(d.url)}>{d.where}</InlineLink>:
      </Paragraph>
      <Quote>{d.excerpt}</Quote>
      <Action href={ctx.link(d.url)}>Read and reply</Action>
    </>
  ),
});

export const mention = defineMail({
  topic: 'mentions',
  label: 'Sent when another member mentions you (@your-name) in a post or comment.',
  schema: z.object({ from: name, where: name, excerpt, url: path }),
  subject: (d) => `${d.from} mentioned you in ${d.where}`,
  preview: (d) => d.excerpt || `${d.from} mentioned you.`,
  body: (d, ctx) => (
    <>
      <Heading>{d.from} mentioned you</Heading>
      <Paragraph>
        Hi {ctx.name}, {d.from} mentioned you in <InlineLink href={ctx.link(d.url)}>{d.where}</InlineLink>:
      </Paragraph>
      <Quote>{d.excerpt}</Quote>
      <Action href={ctx.link(d.url)}>See the conversation</Action>
    </>
  ),
});

export const watchedTopic = defineMail({
  topic: 'watched-topics',
  label: 'Sent at most once an hour per watched forum topic, with the posts that arrived in that hour.',
  schema: z.object({
    topic: name,
    url: path,
    /** how many posts arrived in the hour (the mail shows the first few) */
    count: z.number().int().positive(),
    posts: z
      .array(z.object({ from: name, excerpt, url: path }))
      .min(1)
      .max(5),
  }),
  subject: (d) => `${d.count === 1 ? 'A new post' : `${d.count} new posts`} in ${d.topic}`,
  preview: (d) => `${d.posts[0]!.from}: ${d.posts[0]!.excerpt}`,
  body: (d, ctx) => (
    <>
      <Heading>
        {d.count === 1 ? 'A new post' : `${d.count} new posts`} in {d.topic}
      </Heading>
      <Paragraph>Hi {ctx.name}, here is what was said in a topic you watch:</Paragraph>
      {d.posts.map((p, i) => (
        <Section key={i}>
          <Paragraph>
            <InlineLink href={ctx.link(p.url)}>{p.from}</InlineLink> wrote:
          </Paragraph>
          <Quote>{p.excerpt}</Quote>
        </Section>
      ))}
      {d.count > d.posts.length ? (
        <Paragraph muted>
          And {d.count - d.posts.length} more {d.count - d.posts.length === 1 ? 'post' : 'posts'}.
        </Paragraph>
      ) : null}
      <Action href={ctx.link(d.url)}>Open the topic</Action>
      <Paragraph muted>
        You get this because you watch this topic. Press &quot;Watching&quot; on the topic to stop watching it.
      </Paragraph>
    </>
  ),
});

export const liveShowSoon = defineMail({
  topic: 'live-shows',
  label: 'Sent shortly before a live show you follow starts.',
  schema: z.object({ title: name, startsAt: z.iso.datetime(), url: path }),
  subject: (d) => `Starting soon: ${d.title}`,
  preview: (d, ctx) => `The live show starts ${ctx.when(d.startsAt)}.`,
  body: (d, ctx) => (
    <>
      <Heading>{d.title} starts soon</Heading>
      <Paragraph>
        Hi {ctx.name}, the live show you follow starts on {ctx.when(d.startsAt)}. The chat opens when the show goes
        live.
      </Paragraph>
      <Action href={ctx.link(d.url)}>Go to the show</Action>
    </>
  ),
});

export const wallComment = defineMail({
  topic: 'wall-comments',
  label: 'Sent when another member writes on your wall, or replies to your comment on a wall.',
  schema: z.object({
    from: name,
    /** whose wall: the recipient's own ("your") or another member's name */
    wall: z.union([z.literal('yours'), name]),
    reply: z.boolean(),
    excerpt,
    url: path,
  }),
  subject: (d) =>
    d.wall === 'yours'
      ? d.reply
        ? `${d.from} replied on your wall`
        : `${d.from} wrote on your wall`
      : `${d.from} replied to your comment on ${d.wall}'s wall`,
  preview: (d) => d.excerpt,
  body: (d, ctx) => (
    <>
      <Heading>
        {d.wall === 'yours'
          ? d.reply
            ? `${d.from} replied to a comment on your wall`
            : `${d.from} wrote on your wall`
          : `${d.from} replied to your comment`}
      </Heading>
      <Paragraph>
        Hi {ctx.name},{' '}
        {d.wall === 'yours' ? `${d.from} wrote:` : `${d.from} replied to your comment on ${d.wall}'s wall:`}
      </Paragraph>
      <Quote>{d.excerpt}</Quote>
      <Action href={ctx.link(d.url)}>{d.wall === 'yours' ? 'Open your wall' : 'Open the wall'}</Action>
    </>
  ),
});

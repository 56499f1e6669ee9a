import { eq } from 'drizzle-orm';
import { settingsPart, START_UP } from '#shared/metronome';
import { DEFAULT_TEMPLATE } from '#shared/songmapper';
import { notifications, users } from '#server/db/schema/index';
import type { ObjectContext } from './authz-objects.ts';
import { newCourse } from '#test/fixtures';

/**
 * The authorisation matrix's owner/other columns for routes that name no object: they act
 * on the caller's own data only. Each "self" row lets member A (the owner in the context) call the
 * route while member B (the other) has data of the same kind, and proves A's call neither shows nor
 * touches B's. Returns what went wrong ('' when all is well).
 */
export interface SelfCase {
  route: string;
  name: string;
  run: (ctx: ObjectContext) => Promise<string>;
}

const secret = () => `secret-${Math.random().toString(36).slice(2, 10)}`;
const bodyOf = async (ctx: ObjectContext, who: 'owner' | 'other', url: string) => (await ctx[who].client.get(url)).body;

export const SELF_CASES: SelfCase[] = [
  {
    route: 'GET /api/journal',
    name: "A's journal list does not include B's entries",
    run: async (ctx) => {
      const s = secret();
      await ctx.other.client.post('/journal', {
        exercises: JSON.stringify([{ practicedToday: s, startingTempo: '60', endingTempo: '70' }]),
        notes: s,
      });
      return (await bodyOf(ctx, 'owner', '/api/journal')).includes(s) ? "B's entry is in A's list" : '';
    },
  },
  {
    route: 'POST /journal',
    name: "A's journal entry lands in A's journal only",
    run: async (ctx) => {
      const s = secret();
      const res = await ctx.owner.client.post('/journal', {
        exercises: JSON.stringify([{ practicedToday: s, startingTempo: '60', endingTempo: '70' }]),
        notes: s,
      });
      if (res.statusCode >= 300) return `A's entry refused: ${res.statusCode} ${res.body}`;
      if (!(await bodyOf(ctx, 'owner', '/api/journal')).includes(s)) return "A's entry is missing from A's list";
      return (await bodyOf(ctx, 'other', '/api/journal')).includes(s) ? "A's entry is in B's list" : '';
    },
  },
  {
    route: 'POST /status',
    name: "A's status update changes A's profile status only",
    run: async (ctx) => {
      await ctx.other.client.post('/status', { status: 'B is practising' });
      const s = secret();
      await ctx.owner.client.post('/status', { status: s });
      const [a] = await ctx.app.app.deps.db
        .select({ status: users.status })
        .from(users)
        .where(eq(users.id, ctx.owner.user.id));
      const [b] = await ctx.app.app.deps.db
        .select({ status: users.status })
        .from(users)
        .where(eq(users.id, ctx.other.user.id));
      return a?.status !== s ? "A's status was not set" : b?.status !== 'B is practising' ? "B's status changed" : '';
    },
  },
  {
    route: 'GET /api/notifications',
    name: "A's notifications do not include B's",
    run: async (ctx) => {
      const s = secret();
      await ctx.app.app.deps.services.notifications.notify(ctx.other.user.id, { body: s, url: '/dashboard' });
      return (await bodyOf(ctx, 'owner', '/api/notifications')).includes(s) ? "B's notification is in A's list" : '';
    },
  },
  {
    route: 'POST /api/notifications/read-all',
    name: "A marking all read leaves B's unread",
    run: async (ctx) => {
      await ctx.app.app.deps.services.notifications.notify(ctx.other.user.id, { body: secret(), url: '/dashboard' });
      await ctx.owner.client.post('/api/notifications/read-all', {});
      const rows = await ctx.app.app.deps.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, ctx.other.user.id));
      return rows.some((r) => r.readAt !== null) ? "B's notification was marked read" : '';
    },
  },
  {
    route: 'GET /api/songmapper',
    name: "A's song list does not include B's songs",
    run: async (ctx) => {
      const s = secret();
      await ctx.other.client.post('/songmapper', { song: { ...DEFAULT_TEMPLATE, title: s, bpm: '90' }, id: null });
      return (await bodyOf(ctx, 'owner', '/api/songmapper')).includes(s) ? "B's song is in A's list" : '';
    },
  },
  {
    route: 'GET /songmapper/templates',
    name: "A's templates do not include B's",
    run: async (ctx) => {
      const s = secret();
      await ctx.other.client.post('/songmapper/templates', { title: s, song: { ...DEFAULT_TEMPLATE, title: s } });
      return (await bodyOf(ctx, 'owner', '/songmapper/templates')).includes(s) ? "B's template is in A's list" : '';
    },
  },
  {
    route: 'GET /api/metronome_settings',
    name: "A's saved metronome settings do not include B's",
    run: async (ctx) => {
      const s = secret().slice(0, 20);
      await ctx.other.client.post('/api/metronome_settings', {
        name: s,
        settings: { ...settingsPart(START_UP), bpm: 90 },
      });
      return (await bodyOf(ctx, 'owner', '/api/metronome_settings')).includes(s) ? "B's settings are in A's list" : '';
    },
  },
  {
    route: 'GET /api/practice/summary',
    name: "A's practice summary does not count B's minutes",
    run: async (ctx) => {
      await ctx.other.client.post('/journal/log-time-practiced', { minutes_practiced: 45 });
      const today = ((await ctx.owner.client.get('/api/practice/summary')).json() as { data: { today: number } }).data
        .today;
      return today !== 0 ? `A's today is ${today}, expected 0` : '';
    },
  },
  {
    route: 'POST /lesson-completions',
    name: "A completing a lesson leaves B's progress alone",
    run: async (ctx) => {
      const { slug, lessonIds } = await newCourse(ctx.app, 2);
      await ctx.owner.client.post('/lesson-completions', { lesson_id: lessonIds[0], complete: true });
      const progress = (
        (await ctx.other.client.get(`/api/courses/${slug}`)).json() as { data: { progress: { completed: number } } }
      ).data.progress;
      return progress.completed !== 0 ? "B's progress moved" : '';
    },
  },
  {
    route: 'GET /api/friends',
    name: "A's friends list does not show B's friendships",
    run: async (ctx) => {
      const third = await ctx.app.createUser({ name: `Third ${secret()}` });
      await ctx.other.client.post('/friends', { user_id: third.id });
      return (await bodyOf(ctx, 'owner', '/api/friends')).includes(third.name) ? "B's request shows in A's list" : '';
    },
  },
  {
    route: 'DELETE /friends',
    name: "A unfriending someone cannot end B's friendship with them",
    run: async (ctx) => {
      const third = await ctx.app.signedIn();
      const asked = await ctx.other.client.post('/friends', { user_id: third.user.id });
      await third.client.post(`/friends/${(asked.json() as { relationship_id: number }).relationship_id}/request`, {
        action: 1,
      });
      await ctx.owner.client.request('DELETE', '/friends', { user_id: third.user.id });
      const friends = (
        (await ctx.other.client.get('/api/friends')).json() as { data: { friends: Array<{ id: number }> } }
      ).data.friends;
      return friends.some((f) => f.id === third.user.id) ? '' : "B's friendship was ended";
    },
  },
  {
    route: 'GET /api/billing',
    name: "A's billing page shows no subscription of B's (the subscription object is always the caller's own)",
    run: async (ctx) => {
      const { checkoutCardToken } = await import('#test/fixtures');
      // B: a member who has just subscribed with a card
      const b = await ctx.app.signedIn();
      const pm = await checkoutCardToken(b.client);
      const paid = await b.client.request(
        'POST',
        '/order/stripe',
        { checkout: 'academy', stripeToken: pm, plan: 'monthly' },
        { headers: { 'Idempotency-Key': secret() } },
      );
      if (paid.statusCode !== 200) return `B's checkout failed: ${paid.statusCode} ${paid.body}`;
      const mine = (await ctx.owner.client.get('/api/billing')).json() as { data?: { subscription?: unknown } } & {
        subscription?: unknown;
      };
      const sub = mine.data?.subscription ?? mine.subscription ?? null;
      if (sub !== null) return `A sees a subscription: ${JSON.stringify(sub).slice(0, 200)}`;
      // and A's cancel cannot reach B's subscription
      const cancel = await ctx.owner.client.post('/account/billing/stripe/cancel', { reason: 'Too expensive' });
      if (cancel.statusCode < 300) return `A's cancel answered ${cancel.statusCode}`;
      const theirs = JSON.stringify((await b.client.get('/api/billing')).json() as Record<string, unknown>);
      return /cancel_at_period_end":true|"canceled"/.test(theirs) ? "B's subscription was cancelled" : '';
    },
  },
];

/**
 * Routes that take an object id (a `:param`, or an id-like field) and have no owner/other row, each
 * with its reason: the object belongs to the academy (lessons, shows, products), using another
 * member's object is the feature (liking, replying, reporting, reading a wall), or the route is
 * admin-only in its handler and proved in its module's tests.
 */
export const OWNERLESS: Record<string, string> = {
  'GET /api/live/shows/:id': 'a live show is the academy’s; every community member may open it',
  'GET /api/live/shows/:id/follow': 'a live show is the academy’s; the answer is whether the caller follows it',
  'POST /api/live/shows/:id/follow': 'names an academy show; writes the caller’s own follow (mail/community.test.ts)',
  'GET /live-chat/get': 'a show’s chat is shared by every community member',
  'POST /live-chat/messages': 'writing in a show’s chat is the feature; the message is the writer’s own',
  'POST /live-chat/set-topic': 'admins only (requireAdmin in the handler; live/routes.test.ts)',
  'POST /live-chat/toggle-heart':
    'hearting another member’s message is the feature; the heart row is the caller’s own (tests/node/concurrency.test.ts)',
  'GET /api/courses/:slug': 'academy content (per-lesson locking is the handler’s)',
  'GET /api/lessons/:id': 'academy content (per-lesson locking is the handler’s)',
  'GET /api/stages/:id': 'academy content; the checkmarks shown are the caller’s own',
  'POST /lesson-bookmarks': 'names an academy lesson; writes the caller’s own bookmark',
  'POST /soundslice-path-completions':
    'names an academy path; writes the caller’s own completion (self row: POST /lesson-completions)',
  'POST /stages/toggle-checkmark': 'names an academy stage step; writes the caller’s own checkmark',
  'POST /lessons/quiz': 'names an academy lesson; records the caller’s own attempt',
  'POST /mentorship/lesson-completions': 'names a mentorship lesson; writes the caller’s own completion',
  'GET /api/mentorship/lessons/:id': 'mentorship content shared by every student',
  'GET /api/profiles/:slug':
    'profiles are visible to members (docs/product/profile-and-wall.md); the edit (POST /status) is the owner’s only (self row)',
  'POST /friends':
    'names the member to befriend: asking is the feature; the request is the caller’s (concurrency suite)',
  'GET /api/unsubscribe/:token':
    'the token is the proof (signed for one member and topic; a forged one is 404: mail/mail.test.ts)',
  'POST /api/unsubscribe/:token':
    'the token is the proof (signed for one member and topic; a forged one is 404: mail/mail.test.ts)',
  'GET /api/password/reset/:token':
    'a reset link’s own check: the token is the proof, unguessable, and the answer says only whether it still works',
  'GET /songmapper/pdf/:id': 'a song’s share link: public by design, the id is unguessable',
  'GET /posts': 'threads are public (hidden posts are the handler’s)',
  'GET /posts/thread': 'threads are public (hidden posts are the handler’s)',
  'GET /inline-posts': 'lesson discussions are public (hidden posts are the handler’s)',
  'GET /api/posts/:id': 'a post is public (hidden posts are the handler’s)',
  'GET /api/posts/:id/revisions': 'a post’s edit history is public as the post is',
  'POST /posts':
    'replying in another member’s thread is the feature; an attachment must be the writer’s own unposted upload (posts service: userId and postId null)',
  'POST /toggle-like':
    'liking another member’s post is the feature; the like row is the caller’s own (concurrency suite)',
  'GET /api/forums/:slug': 'a forum is shared by the community',
  'POST /api/forums/:slug/topics': 'starting a topic in a shared forum is the feature',
  'GET /forums/api/topic/:topicId': 'a topic is shared by the community',
  'POST /forums/api/likes/topics/toggle': 'liking another member’s topic is the feature (concurrency suite)',
  'POST /api/forums/topics/:id/watch': 'watching a shared topic; the watch row is the caller’s own',
  'GET /profile-comments/:slug': 'walls are visible to members (docs/product/profile-and-wall.md)',
  'POST /profile-comments': 'writing on another member’s wall is the feature',
  'POST /api/reports': 'reporting another member’s content is the feature; once per member (concurrency suite)',
  'GET /api/checkout/:slug': 'the public catalogue',
  'GET /api/products/course/:courseId': 'the public catalogue',
  'POST /api/products/:slug/card/client-secret': 'the public catalogue: the order is created for the caller',
  'POST /api/products/:slug/card': 'the public catalogue: the order is created for the caller',
  'POST /api/products/:slug/paypal': 'the public catalogue: the order is created for the caller',
  'POST /uploads/chunked':
    'start makes the caller’s own session; upload and finish find the session by id and owner (uploads service), the same lookup the GET /uploads/chunked/:id row proves',
};

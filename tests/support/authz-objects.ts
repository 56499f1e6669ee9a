/* eslint-disable max-lines -- one object per route that needs one, in a single table the authorisation matrix walks; split, a missing row would be harder to see */
import { count, eq } from 'drizzle-orm';
import { CANCEL_REASONS, SANDBOX_CARDS } from '#shared/commerce';
import { settingsPart, START_UP } from '#shared/metronome';
import { DEFAULT_TEMPLATE } from '#shared/songmapper';
import {
  cancellationFeedback,
  entitlements,
  forumCategories,
  forumTopics,
  instalmentPlans,
  mentorships,
  orders,
  posts,
  sandboxObjects,
  songTemplates,
  subscriptions,
  wallComments,
  videoSubmissions,
} from '#server/db/schema/index';
import { receiveWebhook } from '#server/modules/payments/routes';
import { issueReceipt } from '#server/modules/receipts/ledger';
import { receiptNumber } from '#shared/receipts';
import { mp4Bytes, uploadVideo } from '#test/uploads';
import { pngBytes } from '#test/images';
import type { TestApp, TestClient } from '#test/api-harness';
import { newCourse } from '#test/fixtures';

type Member = Awaited<ReturnType<TestApp['signedIn']>>;
export interface ObjectContext {
  app: TestApp;
  owner: Member;
  other: Member;
  admin: TestClient;
}
export interface ObjectCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
}
export interface ObjectCase {
  name: string;
  /** the route it proves ("METHOD /url" as registered) */
  route: string;
  /** the owner's and the other member's entitlements (default membership) */
  ownerEntitlements?: string[];
  /** makes the owner's thing and answers the call another member tries on it */
  setup: (ctx: ObjectContext) => Promise<ObjectCall>;
  /** what the owner's thing looks like now (must not change when another member is refused) */
  observe?: (ctx: ObjectContext, call: ObjectCall) => Promise<unknown>;
  /** the other member's refusal when it is not 403/404: the feature's own answer, which reveals nothing */
  refusal?: number[];
  /** admins may do it (moderation, mentoring), may not (private to the member), or not asserted */
  admin?: 'allowed' | 'refused';
  /** a browser's return address (payments): the owner's call is a 303 to a Location matching this (the success page) */
  ownerRedirect?: RegExp;
}

const json = async (client: TestClient, url: string) => (await client.get(url)).json() as Record<string, unknown>;

async function ownersPost(ctx: ObjectContext) {
  const db = ctx.app.app.deps.db;
  const [cat] = await db
    .insert(forumCategories)
    .values({ slug: `authz-${Math.random().toString(36).slice(2, 8)}`, title: 'Authz' })
    .returning();
  const [topic] = await db
    .insert(forumTopics)
    .values({ categoryId: cat!.id, userId: ctx.owner.user.id, title: 'Owner topic' })
    .returning();
  const res = await ctx.owner.client.post('/posts', {
    type: 'forumtopic',
    resource_id: topic!.id,
    parent_id: null,
    body: 'The owner wrote this.',
  });
  return (res.json() as { post: { id: number } }).post.id;
}
const postRow = async (ctx: ObjectContext, id: number) =>
  (
    await ctx.app.app.deps.db.select({ body: posts.body, trashed: posts.trashedAt }).from(posts).where(eq(posts.id, id))
  )[0];

const ownersSong = async (ctx: ObjectContext) =>
  (
    (
      await ctx.owner.client.post('/songmapper', {
        song: { ...DEFAULT_TEMPLATE, title: 'Private song', bpm: '90' },
        id: null,
      })
    ).json() as { id: string }
  ).id;
const songTitle = async (ctx: ObjectContext, id: string) => {
  const res = await ctx.owner.client.get(`/api/songmapper/${id}`);
  return res.statusCode === 200 ? JSON.stringify(res.json()) : res.statusCode;
};
async function ownersWallComment(ctx: ObjectContext) {
  const res = await ctx.owner.client.post('/profile-comments', { body: 'On my own wall.', to_id: ctx.owner.user.id });
  return (res.json() as Array<{ id: number }>)[0]!.id;
}
async function mentee(ctx: ObjectContext) {
  await ctx.app.app.deps.db.insert(mentorships).values({ studentId: ctx.owner.user.id, option: 'onetime' });
}
async function ownersLink(ctx: ObjectContext) {
  await mentee(ctx);
  const res = await ctx.owner.client.post('/mentorship/accountability/links', {
    student_id: ctx.owner.user.id,
    url: 'https://www.youtube.com/watch?v=abc',
    label: 'Week 1',
  });
  return (res.json() as { link: { id: number } }).link.id;
}
const accountability = async (ctx: ObjectContext) =>
  (await ctx.owner.client.get(`/mentorship/accountability?student_id=${ctx.owner.user.id}`)).body;
async function ownersVideo(ctx: ObjectContext) {
  await mentee(ctx);
  const upload_id = await uploadVideo(ctx.owner.client, mp4Bytes(2500));
  const res = await ctx.owner.client.post('/mentorship/videos', {
    upload_id,
    title: 'Paradiddles at 90',
    note: 'Left hand',
  });
  return (res.json() as { data: { id: number } }).data.id;
}
const videoOf = async (ctx: ObjectContext, id: number) =>
  (await ctx.owner.client.get(`/api/mentorship/videos/${id}`)).body;
async function ownersPlan(ctx: ObjectContext) {
  await mentee(ctx);
  return (await json(ctx.owner.client, '/mentorship/practice-plan')) as {
    id: number;
    admin_version: number;
    student_version: number;
    practice_plan: Record<string, unknown>;
  };
}
async function ownersTopic(ctx: ObjectContext) {
  const db = ctx.app.app.deps.db;
  const [cat] = await db
    .insert(forumCategories)
    .values({ slug: `authz-${Math.random().toString(36).slice(2, 8)}`, title: 'Authz' })
    .returning();
  const [topic] = await db
    .insert(forumTopics)
    .values({ categoryId: cat!.id, userId: ctx.owner.user.id, title: 'Owner topic' })
    .returning();
  return { topicId: topic!.id, categoryId: cat!.id };
}
const topicRow = async (ctx: ObjectContext, call: ObjectCall) =>
  (
    await ctx.app.app.deps.db
      .select({ pinned: forumTopics.pinned, locked: forumTopics.locked, categoryId: forumTopics.categoryId })
      .from(forumTopics)
      .where(eq(forumTopics.id, Number(call.url.split('/')[4])))
  )[0];

// ---- payments: the owner's order at the sandbox provider, part-way (approved or paid there, not yet recorded here) ----
const pathOf = (url: string) => {
  const u = new URL(url, 'http://localhost');
  return u.pathname + u.search;
};
const refOf = (url: string) => url.split('/').pop()!;
async function ok(res: { statusCode: number; body: string; json(): unknown }, what: string) {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json() as { url: string };
}
/** the owner presses "approve" on the sandbox's PayPal page: answers where PayPal sends them back */
const approvePaypal = async (ctx: ObjectContext, approvalUrl: string) =>
  pathOf(
    (
      await ok(
        await ctx.owner.client.post(`/sandbox/paypal/approve/${refOf(approvalUrl)}`, {}, { csrf: false }),
        'sandbox approve',
      )
    ).url,
  );
/** the provider object a return address (token, session_id) or a payment-plan call (agreement_id) names */
const providerRefOf = (call: ObjectCall) =>
  String(
    call.body?.agreement_id ??
      new URL(call.url, 'http://localhost').searchParams.get('token') ??
      new URL(call.url, 'http://localhost').searchParams.get('session_id'),
  );
/**
 * What a payment's success path writes, for both members: their orders, entitlements, membership
 * subscriptions, mentorship, instalment plans and cancellation feedback, and the provider's object
 * (a capture or an activation changes it).
 */
async function paymentsState(ctx: ObjectContext, call: ObjectCall) {
  const db = ctx.app.app.deps.db;
  const of = async (userId: number) => ({
    orders: await db
      .select({ id: orders.id, status: orders.status, paidAt: orders.paidAt, metadata: orders.metadata })
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(orders.id),
    entitlements: await db
      .select({ kind: entitlements.kind, endsAt: entitlements.endsAt, revokedAt: entitlements.revokedAt })
      .from(entitlements)
      .where(eq(entitlements.userId, userId))
      .orderBy(entitlements.id),
    subscriptions: await db
      .select({
        status: subscriptions.status,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        canceledAt: subscriptions.canceledAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(subscriptions.id),
    mentorships: await db
      .select({ option: mentorships.option, status: mentorships.status, orderId: mentorships.orderId })
      .from(mentorships)
      .where(eq(mentorships.studentId, userId)),
    instalmentPlans: await db
      .select({ status: instalmentPlans.status, paid: instalmentPlans.instalmentsPaid })
      .from(instalmentPlans)
      .where(eq(instalmentPlans.userId, userId)),
    feedback: (
      await db.select({ n: count() }).from(cancellationFeedback).where(eq(cancellationFeedback.userId, userId))
    )[0]!.n,
  });
  const [provider] = await db
    .select({ kind: sandboxObjects.kind, data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(eq(sandboxObjects.id, providerRefOf(call)));
  return { owner: await of(ctx.owner.user.id), other: await of(ctx.other.user.id), provider: provider ?? null };
}
const orderByRef = async (ctx: ObjectContext, providerRef: string) =>
  (
    await ctx.app.app.deps.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.providerRef, providerRef))
  )[0]!;
/** the owner's membership by PayPal: approval, approval at the sandbox, the return (a monthly subscription) */
async function paypalMembership(ctx: ObjectContext) {
  const { url } = await ok(
    await ctx.owner.client.post('/paypal/get-approval-url', { checkout: 'academy', plan: 'monthly' }),
    'PayPal approval',
  );
  const back = await ctx.owner.client.get(await approvePaypal(ctx, url));
  if (back.statusCode !== 303 || !back.headers.location?.startsWith('/order'))
    throw new Error(`PayPal return: ${back.statusCode} ${back.headers.location}`);
}
/** the sandbox's hosted checkout paid by card while its webhook is held back: paid at the provider, still pending here */
async function payHostedUnrecorded(ctx: ObjectContext, checkoutUrl: string) {
  const sandbox = ctx.app.app.deps.services.payments.sandbox!;
  sandbox.setDeliverer(async () => undefined);
  try {
    const paid = await ctx.owner.client.post(
      `/sandbox/checkout/${refOf(checkoutUrl)}/pay`,
      {
        method: 'card',
        number: SANDBOX_CARDS.succeeds,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 2,
        cvc: '123',
        name: 'Owner',
      },
      { csrf: false },
    );
    return pathOf((await ok(paid, 'hosted checkout')).url);
  } finally {
    // as modules/payments/routes.ts delivers them
    sandbox.setDeliverer(async (raw, headers) => {
      try {
        await receiveWebhook(ctx.app.app, 'sandbox', raw, headers);
      } catch (err) {
        ctx.app.app.log.error({ err }, 'sandbox webhook failed');
      }
    });
  }
}

/** The matrix's object-level cases: another member's post, wall comment, status, journal, song, practice plan, accountability links, upload, subscription (orders), and every other route that takes an object id. */
/** a receipt issued to the owner (as a payment writes it) and its number */
async function ownersReceipt(ctx: ObjectContext) {
  const row = await issueReceipt(ctx.app.app.deps.db, {
    source: `authz:${Math.random().toString(36).slice(2)}`,
    userId: ctx.owner.user.id,
    item: 'Lifetime membership',
    amountCents: 750_00,
    paymentMethod: 'Visa ending 4242',
    provider: 'sandbox',
  });
  return receiptNumber(row!.kind, row!.number);
}

export const OBJECT_CASES: ObjectCase[] = [
  {
    name: "another member's receipt cannot be read (admins may)",
    route: 'GET /api/billing/receipts/:number',
    admin: 'allowed',
    setup: async (ctx) => ({ method: 'GET', url: `/api/billing/receipts/${await ownersReceipt(ctx)}` }),
  },
  {
    name: "another member's receipt PDF cannot be downloaded (admins may)",
    route: 'GET /api/billing/receipts/:number/pdf',
    admin: 'allowed',
    setup: async (ctx) => ({ method: 'GET', url: `/api/billing/receipts/${await ownersReceipt(ctx)}/pdf` }),
  },
  {
    name: "another member's post cannot be edited (admins may)",
    route: 'PATCH /posts/:id',
    setup: async (ctx) => ({ method: 'PATCH', url: `/posts/${await ownersPost(ctx)}`, body: { body: 'Hijacked.' } }),
    observe: (ctx, call) => postRow(ctx, Number(call.url.split('/')[2])),
    admin: 'allowed',
  },
  {
    name: "another member's post cannot be deleted (admins may)",
    route: 'DELETE /posts/:id',
    setup: async (ctx) => ({ method: 'DELETE', url: `/posts/${await ownersPost(ctx)}` }),
    observe: (ctx, call) => postRow(ctx, Number(call.url.split('/')[2])),
    admin: 'allowed',
  },
  {
    name: "another member's wall comment cannot be deleted by a third member (admins may)",
    route: 'DELETE /profile-comments/:id',
    setup: async (ctx) => {
      // the answer is the wall's first page, newest first
      const res = await ctx.owner.client.post('/profile-comments', {
        body: 'On my own wall.',
        to_id: ctx.owner.user.id,
      });
      const id = (res.json() as Array<{ id: number }>)[0]!.id;
      return { method: 'DELETE', url: `/profile-comments/${id}` };
    },
    observe: async (ctx, call) =>
      (
        await ctx.app.app.deps.db
          .select()
          .from(wallComments)
          .where(eq(wallComments.id, Number(call.url.split('/')[2])))
      ).length,
    admin: 'allowed',
  },
  {
    name: "another member's song cannot be read",
    route: 'GET /api/songmapper/:id',
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/songmapper', {
        song: { ...DEFAULT_TEMPLATE, title: 'Private song', bpm: '90' },
        id: null,
      });
      return { method: 'GET', url: `/api/songmapper/${(res.json() as { id: number }).id}` };
    },
  },
  {
    name: "another member's song cannot be deleted",
    route: 'DELETE /songmapper/:id',
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/songmapper', {
        song: { ...DEFAULT_TEMPLATE, title: 'Private song', bpm: '90' },
        id: null,
      });
      return { method: 'DELETE', url: `/songmapper/${(res.json() as { id: number }).id}` };
    },
    observe: async (ctx, call) => (await ctx.owner.client.get(`/api/songmapper/${call.url.split('/')[2]}`)).statusCode,
  },
  {
    name: "another member's saved metronome settings cannot be changed",
    route: 'PATCH /api/metronome_settings/:id',
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/api/metronome_settings', {
        name: 'Mine',
        settings: { ...settingsPart(START_UP), bpm: 90 },
      });
      return {
        method: 'PATCH',
        url: `/api/metronome_settings/${(res.json() as { data: { id: number } }).data.id}`,
        body: { name: 'Theirs' },
      };
    },
    observe: async (ctx) => json(ctx.owner.client, '/api/metronome_settings'),
  },
  {
    name: "another student's practice plan cannot be read (their mentor, an admin, may)",
    route: 'GET /mentorship/practice-plan',
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      await ctx.app.app.deps.db.insert(mentorships).values({ studentId: ctx.owner.user.id, option: 'onetime' });
      return { method: 'GET', url: `/mentorship/practice-plan?student_id=${ctx.owner.user.id}` };
    },
    admin: 'allowed',
  },
  {
    name: "another student's accountability link cannot be deleted (admins may)",
    route: 'DELETE /mentorship/accountability/links/:id',
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      await ctx.app.app.deps.db.insert(mentorships).values({ studentId: ctx.owner.user.id, option: 'onetime' });
      const res = await ctx.owner.client.post('/mentorship/accountability/links', {
        student_id: ctx.owner.user.id,
        url: 'https://www.youtube.com/watch?v=abc',
        label: 'Week 1',
      });
      return {
        method: 'DELETE',
        url: `/mentorship/accountability/links/${(res.json() as { link: { id: number } }).link.id}`,
      };
    },
    observe: async (ctx) =>
      (await ctx.owner.client.get(`/mentorship/accountability?student_id=${ctx.owner.user.id}`)).body,
    admin: 'allowed',
  },
  {
    name: "another member's upload session cannot be looked at",
    route: 'GET /uploads/chunked/:id',
    ownerEntitlements: ['mentorship'],
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/uploads/chunked', {
        phase: 'start',
        mime_type: 'video/mp4',
        size: 1000,
        name: 'groove.mp4',
      });
      return {
        method: 'GET',
        url: `/uploads/chunked/${(res.json() as { data: { session_id: string } }).data.session_id}`,
      };
    },
  },
  {
    name: "another member's notification cannot be opened",
    route: 'GET /api/notifications/:id',
    setup: async (ctx) => {
      await ctx.app.app.deps.services.notifications.notify(ctx.owner.user.id, {
        body: 'Private note',
        url: '/dashboard',
      });
      const list = (await json(ctx.owner.client, '/api/notifications')) as { data: Array<{ id: number }> };
      return { method: 'GET', url: `/api/notifications/${list.data[0]!.id}` };
    },
    admin: 'refused',
  },
  // ---- the same, through the product's POST with _method (method-override routes) ----
  {
    name: "another member's post cannot be deleted by POST _method=delete (admins may)",
    route: 'POST /posts/:id',
    setup: async (ctx) => ({ method: 'POST', url: `/posts/${await ownersPost(ctx)}`, body: { _method: 'delete' } }),
    observe: (ctx, call) => postRow(ctx, Number(call.url.split('/')[2])),
    admin: 'allowed',
  },
  {
    name: "another member's wall comment cannot be deleted by POST _method=delete (admins may)",
    route: 'POST /profile-comments/:id',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/profile-comments/${await ownersWallComment(ctx)}`,
      body: { _method: 'delete' },
    }),
    observe: async (ctx, call) =>
      (
        await ctx.app.app.deps.db
          .select()
          .from(wallComments)
          .where(eq(wallComments.id, Number(call.url.split('/')[2])))
      ).length,
    admin: 'allowed',
  },
  {
    name: "another member's song cannot be deleted by POST _method=delete",
    route: 'POST /songmapper/:id',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/songmapper/${await ownersSong(ctx)}`,
      body: { _method: 'delete' },
    }),
    observe: (ctx, call) => songTitle(ctx, call.url.split('/')[2]!),
  },
  {
    name: "another student's accountability link cannot be deleted by POST _method=delete (admins may)",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/accountability/links/:id',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/mentorship/accountability/links/${await ownersLink(ctx)}`,
      body: { _method: 'delete' },
    }),
    observe: accountability,
    admin: 'allowed',
  },
  // ---- songs and settings ----
  {
    name: "another member's song cannot be overwritten by saving with its id",
    route: 'POST /songmapper',
    setup: async (ctx) => ({
      method: 'POST',
      url: '/songmapper',
      body: { id: await ownersSong(ctx), song: { ...DEFAULT_TEMPLATE, title: 'Overwritten', bpm: '100' } },
    }),
    observe: (ctx, call) => songTitle(ctx, call.body!.id as string),
  },
  {
    name: "another member's song template cannot be deleted",
    route: 'DELETE /songmapper/templates/:id',
    setup: async (ctx) => {
      await ctx.owner.client.post('/songmapper/templates', {
        title: 'Mine',
        song: { ...DEFAULT_TEMPLATE, title: 'Mine' },
      });
      const [row] = await ctx.app.app.deps.db
        .select()
        .from(songTemplates)
        .where(eq(songTemplates.userId, ctx.owner.user.id));
      return { method: 'DELETE', url: `/songmapper/templates/${row!.id}` };
    },
    observe: async (ctx) => json(ctx.owner.client, '/songmapper/templates'),
  },
  {
    name: "another member's saved metronome settings cannot be deleted",
    route: 'DELETE /api/metronome_settings/:id',
    setup: async (ctx) => {
      const res = await ctx.owner.client.post('/api/metronome_settings', {
        name: 'Mine',
        settings: { ...settingsPart(START_UP), bpm: 90 },
      });
      return { method: 'DELETE', url: `/api/metronome_settings/${(res.json() as { data: { id: number } }).data.id}` };
    },
    observe: async (ctx) => json(ctx.owner.client, '/api/metronome_settings'),
  },
  // ---- uploads ----
  {
    name: "another member's post attachment cannot be deleted",
    route: 'POST /attachments/delete',
    setup: async (ctx) => {
      const up = await ctx.owner.client.upload('/attachments', 'file', 'kit.png', await pngBytes());
      return {
        method: 'POST',
        url: '/attachments/delete',
        body: { filename: (up.json() as { filename: string }).filename },
      };
    },
    admin: 'refused',
  },
  {
    name: "another student's finished upload cannot be submitted as their video",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/videos',
    // the same 422 as an unfinished upload: another member's upload id is not told apart from a bad one
    refusal: [422],
    setup: async (ctx) => {
      await mentee(ctx);
      return {
        method: 'POST',
        url: '/mentorship/videos',
        body: { upload_id: await uploadVideo(ctx.owner.client, mp4Bytes(2500)), title: 'Mine', note: '' },
      };
    },
  },
  {
    name: "another student's practice video cannot be opened",
    ownerEntitlements: ['mentorship'],
    route: 'GET /api/mentorship/videos/:id',
    setup: async (ctx) => ({ method: 'GET', url: `/api/mentorship/videos/${await ownersVideo(ctx)}` }),
    admin: 'allowed',
  },
  {
    name: "another student's practice video file cannot be streamed",
    ownerEntitlements: ['mentorship'],
    route: 'GET /mentorship/videos/:id/file',
    setup: async (ctx) => ({ method: 'GET', url: `/mentorship/videos/${await ownersVideo(ctx)}/file` }),
    admin: 'allowed',
  },
  {
    name: "another student's practice video captions cannot be read",
    ownerEntitlements: ['mentorship'],
    route: 'GET /mentorship/videos/:id/captions',
    setup: async (ctx) => {
      const id = await ownersVideo(ctx);
      // captions as an admin attaches them: a private WebVTT file beside the video
      const path = await ctx.app.app.deps.storage.savePrivate('captions', 'vtt', Buffer.from('WEBVTT\n'));
      await ctx.app.app.deps.db
        .update(videoSubmissions)
        .set({ captionsPath: path, captionsLang: 'en' })
        .where(eq(videoSubmissions.id, id));
      return { method: 'GET', url: `/mentorship/videos/${id}/captions` };
    },
    admin: 'allowed',
  },
  {
    name: "another student's practice video cannot be deleted",
    ownerEntitlements: ['mentorship'],
    route: 'DELETE /mentorship/videos/:id',
    setup: async (ctx) => ({ method: 'DELETE', url: `/mentorship/videos/${await ownersVideo(ctx)}` }),
    observe: (ctx, call) => videoOf(ctx, Number(call.url.split('/')[3])),
  },
  {
    name: "another student's practice video cannot be deleted by POST _method=delete",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/videos/:id',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/mentorship/videos/${await ownersVideo(ctx)}`,
      body: { _method: 'delete' },
    }),
    observe: (ctx, call) => videoOf(ctx, Number(call.url.split('/')[3])),
  },
  {
    name: "another student's videos cannot be listed (admins may)",
    ownerEntitlements: ['mentorship'],
    route: 'GET /api/mentorship/videos',
    setup: async (ctx) => {
      await ownersVideo(ctx);
      return { method: 'GET', url: `/api/mentorship/videos?student_id=${ctx.owner.user.id}` };
    },
    admin: 'allowed',
  },
  // ---- mentorship: practice plan and accountability ----
  {
    name: "another student's practice plan cannot be saved over (their mentor, an admin, may)",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/practice-plan',
    setup: async (ctx) => {
      const p = await ownersPlan(ctx);
      return {
        method: 'POST',
        url: '/mentorship/practice-plan',
        body: {
          id: p.id,
          admin_version: p.admin_version,
          student_version: p.student_version,
          practice_plan: p.practice_plan,
        },
      };
    },
    observe: async (ctx) => json(ctx.owner.client, '/mentorship/practice-plan'),
    admin: 'allowed',
  },
  {
    name: "another student's accountability links cannot be read (admins may)",
    ownerEntitlements: ['mentorship'],
    route: 'GET /mentorship/accountability',
    setup: async (ctx) => {
      await ownersLink(ctx);
      return { method: 'GET', url: `/mentorship/accountability?student_id=${ctx.owner.user.id}` };
    },
    admin: 'allowed',
  },
  {
    name: "no link can be added to another student's accountability list (admins may)",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/accountability/links',
    setup: async (ctx) => {
      await mentee(ctx);
      return {
        method: 'POST',
        url: '/mentorship/accountability/links',
        body: { student_id: ctx.owner.user.id, url: 'https://www.youtube.com/watch?v=xyz', label: 'Planted' },
      };
    },
    observe: accountability,
    admin: 'allowed',
  },
  {
    name: "another student's link labels cannot be changed (admins may)",
    ownerEntitlements: ['mentorship'],
    route: 'POST /mentorship/accountability/save-label',
    setup: async (ctx) => ({
      method: 'POST',
      url: '/mentorship/accountability/save-label',
      body: { student_id: ctx.owner.user.id, links: [{ id: await ownersLink(ctx), label: 'Renamed' }] },
    }),
    observe: accountability,
    admin: 'allowed',
  },
  // ---- friends ----
  {
    name: 'a friend request between two other members cannot be accepted or cancelled by a third',
    route: 'POST /friends/:relationshipId/request',
    setup: async (ctx) => {
      const third = await ctx.app.createUser();
      const res = await ctx.owner.client.post('/friends', { user_id: third.id });
      return {
        method: 'POST',
        url: `/friends/${(res.json() as { relationship_id: number }).relationship_id}/request`,
        body: { action: 0 },
      };
    },
    observe: async (ctx) => json(ctx.owner.client, '/api/friends'),
  },
  // ---- orders (the subscription's and a course's payments) ----
  {
    name: "another member's order cannot be looked at",
    route: 'GET /api/order',
    setup: async (ctx) => {
      await ctx.owner.client.post('/mentorship/create-checkout', {
        price: 3900,
        idempotency_key: `authz-${ctx.owner.user.id}`,
      });
      const [order] = await ctx.app.app.deps.db.select().from(orders).where(eq(orders.userId, ctx.owner.user.id));
      return { method: 'GET', url: `/api/order?order=${order!.id}` };
    },
    admin: 'refused',
  },
  // ---- forum moderation: a topic's author is not a moderator ----
  {
    name: "a member cannot pin another's (or their own) topic (admins may)",
    route: 'POST /api/forums/topics/:id/pin',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/api/forums/topics/${(await ownersTopic(ctx)).topicId}/pin`,
      body: { pinned: true },
    }),
    observe: topicRow,
    admin: 'allowed',
  },
  {
    name: "a member cannot lock another's topic (admins may)",
    route: 'POST /api/forums/topics/:id/lock',
    setup: async (ctx) => ({
      method: 'POST',
      url: `/api/forums/topics/${(await ownersTopic(ctx)).topicId}/lock`,
      body: { locked: true },
    }),
    observe: topicRow,
    admin: 'allowed',
  },
  {
    name: "a member cannot move another's topic (admins may)",
    route: 'POST /api/forums/topics/:id/move',
    setup: async (ctx) => {
      const { topicId, categoryId } = await ownersTopic(ctx);
      return { method: 'POST', url: `/api/forums/topics/${topicId}/move`, body: { category_id: categoryId } };
    },
    observe: topicRow,
    admin: 'allowed',
  },
  // ---- payments: return addresses and the PayPal instalment plan, with the owner's order or agreement id ----
  {
    name: "another member cannot complete the owner's approved PayPal membership order at the return address",
    route: 'GET /paypal/return',
    ownerEntitlements: [],
    setup: async (ctx) => {
      const { url } = await ok(
        await ctx.owner.client.post('/paypal/lifetime-checkout', { checkout: 'academy' }),
        'PayPal lifetime checkout',
      );
      return { method: 'GET', url: await approvePaypal(ctx, url) };
    },
    observe: paymentsState,
    admin: 'refused',
    ownerRedirect: /^\/order\?order=\d+$/,
  },
  {
    name: "another member cannot complete the owner's approved PayPal course order at the return address",
    route: 'GET /api/products/paypal/return',
    ownerEntitlements: [],
    setup: async (ctx) => {
      const { courseId } = await newCourse(ctx.app, 1, { membersOnly: true });
      // the course's tiers are made the first time the catalogue is asked
      await ctx.owner.client.get(`/api/products/course/${courseId}`);
      const { url } = await ok(
        await ctx.owner.client.post(`/api/products/course_${courseId}_basic/paypal`, {}),
        'PayPal course order',
      );
      return { method: 'GET', url: await approvePaypal(ctx, url) };
    },
    observe: paymentsState,
    admin: 'refused',
    ownerRedirect: /^\/order\?order=\d+$/,
  },
  {
    name: "another member cannot complete the owner's approved lifetime upgrade (billing) at the return address",
    route: 'GET /account/billing/paypal/lifetime-return',
    ownerEntitlements: [],
    setup: async (ctx) => {
      await paypalMembership(ctx);
      const res = await ctx.owner.client.post('/account/billing/paypal/lifetime-checkout', {
        reason: CANCEL_REASONS[0].value,
        reason_description: '',
        discount: 1,
      });
      return { method: 'GET', url: await approvePaypal(ctx, (await ok(res, 'lifetime checkout')).url) };
    },
    observe: paymentsState,
    admin: 'refused',
    ownerRedirect: /^\/account\/billing$/,
  },
  {
    name: "another member cannot complete the owner's paid hosted mentorship checkout at the return address",
    route: 'GET /mentorship/checkout/complete',
    ownerEntitlements: [],
    setup: async (ctx) => {
      const { url } = await ok(
        await ctx.owner.client.post('/mentorship/create-checkout', {
          price: 3200,
          idempotency_key: `authz-${ctx.owner.user.id}`,
        }),
        'mentorship checkout',
      );
      const call = { method: 'GET' as const, url: await payHostedUnrecorded(ctx, url) };
      // paid at the provider, not yet here: the return address is what records it
      const order = await orderByRef(ctx, providerRefOf(call));
      if (order.status !== 'pending') throw new Error(`the owner's order is ${order.status}, expected pending`);
      return call;
    },
    observe: paymentsState,
    admin: 'refused',
    ownerRedirect: /^\/mentorship$/,
  },
  {
    name: "another member cannot claim the owner's approved PayPal instalment agreement",
    route: 'POST /mentorship/payment-plan',
    ownerEntitlements: [],
    setup: async (ctx) => {
      const { url } = await ok(
        await ctx.owner.client.post('/mentorship/paypal/subscription', {
          plan: '6',
          idempotency_key: `authz-${ctx.owner.user.id}`,
        }),
        'PayPal instalments',
      );
      await approvePaypal(ctx, url);
      return {
        method: 'POST',
        url: '/mentorship/payment-plan',
        body: {
          agreement_id: refOf(url),
          contact_name: 'Owner',
          contact_email: 'owner@example.test',
          name: 'Owner',
          email: 'owner@example.test',
        },
      };
    },
    observe: paymentsState,
    admin: 'refused',
  },
];

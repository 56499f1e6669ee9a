import type { AdminPlan, AdminProduct } from '#shared/admin-commerce';
import { CONTENT, slugify } from '#shared/admin-content';
import { CATEGORY } from '#shared/admin-community';
import { COURSE_LEVELS, DEFAULT_CHECKOUT } from '#shared/commerce';
import { courseTierSlug } from '#shared/products';
import { exercise } from './practice-plans.ts';

/*
 * The admin console's content written at its limits, for the long-text spec (tests/e2e/long-text.spec.ts,
 * docs/product/layout.md): a course, a lesson in it with notation paths and a quiz, a stage and an
 * achievement, each field at the most characters its schema takes (src/shared/admin-content.ts); the
 * shop's names and a forum category (writeLongShop); a mentor's practice plan. All built from the spec's
 * own long text (a long title, a word of 200 letters, a pasted link, right-to-left text).
 */

/** the spec's long pieces of text */
export interface LongText {
  title: string;
  word: string;
  url: string;
  rtl: string;
  body: string;
}

/** a call to the admin API as the signed-in admin */
export type AdminSend = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) => Promise<T>;

/** the longest an address field takes (adminUrlSchema's default) */
const URL_MAX = 2000;

/** `parts` repeated, space-separated, cut at exactly `max` characters (no space at either end) */
export function fill(max: number, ...parts: string[]): string {
  let text = parts.join(' ');
  while (text.length < max) text += ` ${parts.join(' ')}`;
  text = text.slice(0, max);
  // trimming would shorten it: end on a letter instead
  return text.endsWith(' ') ? `${text.slice(0, -1)}x` : text;
}

/** a slug of exactly `max` characters, unique by `stamp` */
const longSlug = (stamp: string, text: string, max: number = CONTENT.slugMax) =>
  `${slugify(`${stamp} ${text} ${text}`).replace(/-+$/, '')}${'x'.repeat(max)}`.slice(0, max);

/** a path on this site (an image that exists) with a query string up to the address limit */
const longPath = (path: string) => `${path}?v=${'a'.repeat(URL_MAX - path.length - 3)}`;

/** the editors' addresses for the content written, by route path */
export type AdminContentPages = Record<
  '/admin/courses/:id' | '/admin/lessons/:id' | '/admin/stages/:id' | '/admin/achievements/:id',
  string
>;

export async function writeLongAdminContent(send: AdminSend, t: LongText, stamp: string): Promise<AdminContentPages> {
  const description = fill(CONTENT.descriptionMax, t.body);
  const course = await send<{ data: { id: number } }>('POST', '/api/admin/courses', {
    title: fill(CONTENT.titleMax, `${t.title} — ${t.rtl}`),
    slug: longSlug(stamp, t.title),
    description,
    image_url: longPath('/images/courses/groove-foundations.svg'),
    members_only: true,
    area: 'main',
    is_welcome: false,
    position: 100_000,
  });
  const lesson = await send<{ data: { id: number } }>('POST', `/api/admin/courses/${course.data.id}/lessons`, {
    title: fill(CONTENT.titleMax, t.word.slice(0, 100), t.title),
    slug: longSlug(stamp, `lesson ${t.word}`),
    description,
    video_url: fill(URL_MAX, `https://www.youtube-nocookie.com/embed/demo0000001?list=${t.word}`).replace(/ /g, 'x'),
    members_only: true,
    position: 100_000,
    next_lesson_id: 1,
  });
  const paths = [t.title, t.word, t.rtl].map((title, i) => ({
    title: fill(CONTENT.titleMax, title),
    url: fill(URL_MAX, `${t.url}&path=${i}`).replace(/ /g, 'x'),
  }));
  await send('PUT', `/api/admin/lessons/${lesson.data.id}/paths`, { paths });
  const options = (n: number) =>
    [t.title, t.word, t.rtl, `Playlist: ${t.url}`].slice(0, n).map((text) => fill(500, text));
  await send('PUT', `/api/admin/lessons/${lesson.data.id}/quiz`, {
    questions: [
      {
        title: fill(CONTENT.titleMax, t.title),
        imageUrl: longPath('/images/quiz/quarter.png'),
        options: options(4),
        correct: 1,
      },
      { title: fill(CONTENT.titleMax, t.word), imageUrl: null, options: options(2), correct: 0 },
    ],
  });
  const stage = await send<{ data: { id: number } }>('POST', '/api/admin/stages', {
    title: fill(CONTENT.titleMax, t.rtl, t.title),
    description,
    image_url: longPath('/images/stages/stage-1.svg'),
    steps: [t.title, t.word, t.url, t.rtl, t.body].map((text) => fill(CONTENT.stepMax, text)),
  });
  const achievement = await send<{ data: { id: number } }>('POST', '/api/admin/achievements', {
    name: fill(CONTENT.titleMax, t.word),
    slug: longSlug(stamp, t.word),
    description,
    image_url: longPath('/images/achievements/first-lesson.svg'),
    rule: 'practice_minutes',
    threshold: 1_000_000,
    position: 100_000,
  });
  return {
    '/admin/courses/:id': `/admin/courses/${course.data.id}`,
    '/admin/lessons/:id': `/admin/lessons/${lesson.data.id}`,
    '/admin/stages/:id': `/admin/stages/${stage.data.id}`,
    '/admin/achievements/:id': `/admin/achievements/${achievement.data.id}`,
  };
}

/** what the shop's writing made, and the addresses that show it, by route path */
export interface LongShop {
  category: { id: number; slug: string };
  pages: Record<'/admin/products' | '/admin/categories' | '/checkout/course/register' | '/checkout/course', string>;
}

/**
 * The names the admin gives what the academy sells and the forum's sections, at their schema limits
 * (src/shared/admin-commerce.ts, src/shared/admin-community.ts): the membership checkout's heading,
 * subheading, monthly title and sales tags, the long course's Basic tier, and a new forum category.
 * The console creates no checkout plans (it edits the academy's one), so that one is renamed, and named
 * back by the call pushed onto `undo` (its prices and trials are never touched): the other specs of the
 * run read it as the demo has it. The course's tiers are made as for any course, when its checkout is
 * first asked for; `undo` takes them off sale, and deletes the category.
 */
export async function writeLongShop(
  send: AdminSend,
  t: LongText,
  stamp: string,
  course: number,
  undo: (() => Promise<unknown>)[],
): Promise<LongShop> {
  const {
    slug,
    updated_at: _updated,
    ...plan
  } = await send<AdminPlan>('GET', `/api/admin/plans/${DEFAULT_CHECKOUT.slug}`);
  await send('PUT', `/api/admin/plans/${slug}`, {
    ...plan,
    heading: fill(200, t.title, t.rtl),
    subheading: fill(500, t.url, t.word, t.rtl),
    monthly_title: fill(60, t.word),
    monthly_sales_tag: fill(40, t.word),
    yearly_sales_tag: fill(40, t.rtl),
    lifetime_sales_tag: fill(40, t.title),
  });
  undo.push(() => send('PUT', `/api/admin/plans/${slug}`, plan));

  await send('GET', `/api/products/course/${course}`);
  for (const level of COURSE_LEVELS) {
    const { product } = await send<{ product: AdminProduct }>(
      'GET',
      `/api/admin/products/${courseTierSlug(course, level)}`,
    );
    const tier = {
      title: level === 'basic' ? fill(200, t.word.slice(0, 120), t.rtl) : product.title,
      course_id: product.course_id,
      level: product.level,
      price_cents: product.price_cents,
      list_price_cents: product.list_price_cents,
      spots: product.spots,
      active: true,
    };
    await send('PUT', `/api/admin/products/${product.slug}`, tier);
    undo.push(() => send('PUT', `/api/admin/products/${product.slug}`, { ...tier, active: false }));
  }

  // after the last category: the forums index and the new-topic dialog list the demo's first
  const { data: category } = await send<{ data: { id: number; slug: string } }>('POST', '/api/admin/categories', {
    title: fill(CATEGORY.titleMax, t.word.slice(0, 50), t.title),
    slug: longSlug(stamp, t.title, CATEGORY.slugMax),
    description: fill(CATEGORY.descriptionMax, t.url, t.rtl, t.word),
  });
  undo.push(() => send('DELETE', `/api/admin/categories/${category.id}`));

  return {
    category,
    pages: {
      '/admin/products': `/admin/products?edit=${courseTierSlug(course, 'basic')}`,
      '/admin/categories': `/admin/categories?q=${category.slug}`,
      '/checkout/course/register': `/checkout/course/register?course=${course}`,
      '/checkout/course': `/checkout/course?course=${course}&level=basic`,
    },
  };
}

/** the mentor's practice plan for `student`: day and exercise titles, links and notes at length */
export async function writeLongPracticePlan(send: AdminSend, t: LongText, student: number): Promise<void> {
  const plan = await send<{ id: number; admin_version: number; student_version: number }>(
    'GET',
    `/mentorship/practice-plan?student_id=${student}`,
  );
  const day = (i: number) => ({
    id: `d${i}`,
    title: i ? t.rtl : t.title,
    complete: false,
    exercises: [t.word.slice(0, 100), t.title, t.rtl].map((title, j) =>
      exercise({ id: `e${i}x${j}`, title, link: t.url, notes: t.body }),
    ),
  });
  await send('POST', '/mentorship/practice-plan', {
    id: plan.id,
    admin_version: plan.admin_version,
    student_version: plan.student_version,
    practice_plan: { phase1: [[day(0), day(1)]], phase2: [], phase3: [] },
  });
}

import { CONTENT, slugify } from '#shared/admin-content';

/*
 * The admin console's content written at its limits, for the long-text spec (tests/e2e/long-text.spec.ts,
 * docs/product/layout.md): a course, a lesson in it with notation paths and a quiz, a stage and an
 * achievement, each field at the most characters its schema takes (src/shared/admin-content.ts), built
 * from the spec's own long text (a long title, a word of 200 letters, a pasted link, right-to-left text).
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
export type AdminSend = <T>(method: 'POST' | 'PUT', url: string, data: unknown) => Promise<T>;

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

/** a slug of exactly CONTENT.slugMax characters, unique by `stamp` */
const longSlug = (stamp: string, text: string) =>
  `${slugify(`${stamp} ${text} ${text}`).replace(/-+$/, '')}${'x'.repeat(CONTENT.slugMax)}`.slice(0, CONTENT.slugMax);

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

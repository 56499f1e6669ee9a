import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { idSchema } from './http.ts';

// Accountability links (docs/product/mentorship.md): a student's links, added by them or their mentor.

export const ACCOUNTABILITY_DEBOUNCE_MS = 1000;
export const LINK_DISPLAY_LIMIT = 40;
export const ACCOUNTABILITY_LIMITS = { linksPerStudent: 200, label: 200, url: 2000 } as const;

/** "https://www.youtube.com/watch?v=abcdef..." → first 40 characters and an ellipsis */
export const truncateLink = (text: string, limit: number = LINK_DISPLAY_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit)}...` : text;

export const accountabilityLinkSchema = z.object({
  id: z.number(),
  url: z.string(),
  label: z.string(),
  created_at: z.string(),
});
export type AccountabilityLink = z.infer<typeof accountabilityLinkSchema>;

export const ACCOUNTABILITY_MESSAGES = {
  urlRequired: 'Enter the address of the link.',
  urlInvalid: 'Links must start with http:// or https://',
  urlTooLong: `Links can be up to ${ACCOUNTABILITY_LIMITS.url} characters.`,
  labelTooLong: `Labels can be up to ${ACCOUNTABILITY_LIMITS.label} characters.`,
  tooMany: `This student already has ${ACCOUNTABILITY_LIMITS.linksPerStudent} links. Delete one to add another.`,
  notFound: 'This link does not exist.',
  deleteConfirm: 'Delete this link? This cannot be undone.',
} as const;

const isHttpUrl = (value: string) => {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
};

/** GET /mentorship/accountability?student_id= (a student's own links when left out) */
export const accountabilityQuerySchema = z.object({ student_id: idSchema.optional() });

/** POST /mentorship/accountability/links */
export const addAccountabilityLinkBodySchema = z.object({
  student_id: idSchema,
  url: z
    .string({ error: ACCOUNTABILITY_MESSAGES.urlRequired })
    .trim()
    .min(1, ACCOUNTABILITY_MESSAGES.urlRequired)
    .max(ACCOUNTABILITY_LIMITS.url, ACCOUNTABILITY_MESSAGES.urlTooLong)
    .refine(isHttpUrl, ACCOUNTABILITY_MESSAGES.urlInvalid),
  label: z
    .string()
    .overwrite(cleanDisplayText)
    .trim()
    .max(ACCOUNTABILITY_LIMITS.label, ACCOUNTABILITY_MESSAGES.labelTooLong)
    .default(''),
});

/** POST /mentorship/accountability/save-label: labels only, of that student's links */
export const saveAccountabilityLabelsBodySchema = z.object({
  student_id: idSchema,
  links: z
    .array(
      z.object({
        id: idSchema,
        label: z
          .string()
          .overwrite(cleanDisplayText)
          .max(ACCOUNTABILITY_LIMITS.label, ACCOUNTABILITY_MESSAGES.labelTooLong),
      }),
    )
    .max(ACCOUNTABILITY_LIMITS.linksPerStudent),
});

export const accountabilityLinksAnswerSchema = z.object({ links: z.array(accountabilityLinkSchema) });
export type AccountabilityLinksAnswer = z.infer<typeof accountabilityLinksAnswerSchema>;
/** POST /mentorship/accountability/links (201): the new link, and the student's links now */
export const accountabilityLinkAddedSchema = accountabilityLinksAnswerSchema.extend({ link: accountabilityLinkSchema });
export type AccountabilityLinkAdded = z.infer<typeof accountabilityLinkAddedSchema>;

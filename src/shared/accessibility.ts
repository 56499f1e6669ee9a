import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';

/**
 * The accessibility statement (/accessibility) and its barrier report form
 * (docs/product/accessibility.md): anyone, signed in or not, can tell the team about something
 * that stopped them; admins read the reports in the console and are notified of each.
 */
export const BARRIER_REPORT = {
  pageMax: 500,
  descriptionMax: 5000,
  emailMax: 254,
  /** the statement's date: when the academy was last checked against the standard */
  reviewed: '2026-11-26',
} as const;

export const BARRIER_MESSAGES = {
  descriptionRequired: 'Please describe the barrier: what you were trying to do and what stopped you.',
  descriptionTooLong: `Please keep the description to ${BARRIER_REPORT.descriptionMax.toLocaleString('en-US')} characters.`,
  pageTooLong: `Please keep the page's name or address to ${BARRIER_REPORT.pageMax} characters.`,
  emailInvalid: 'Please enter a valid email address, or leave the field empty.',
  sent: 'Thank you. Your report has reached our team. If you left an email address, we will write back to you there.',
} as const;

/** POST /accessibility/barriers */
export const barrierReportSchema = z.object({
  page: z
    .string()
    .overwrite(cleanDisplayText)
    .trim()
    .max(BARRIER_REPORT.pageMax, BARRIER_MESSAGES.pageTooLong)
    .optional()
    .default(''),
  description: z
    .string({ error: BARRIER_MESSAGES.descriptionRequired })
    .trim()
    .min(1, BARRIER_MESSAGES.descriptionRequired)
    .max(BARRIER_REPORT.descriptionMax, BARRIER_MESSAGES.descriptionTooLong),
  email: z
    .string()
    .trim()
    .max(BARRIER_REPORT.emailMax, BARRIER_MESSAGES.emailInvalid)
    .refine((v) => v === '' || z.email().safeParse(v).success, BARRIER_MESSAGES.emailInvalid)
    .optional()
    .default(''),
});
export type BarrierReportInput = z.input<typeof barrierReportSchema>;

/**
 * GET /api/admin/barrier-reports: one row of the admins' list. Built in a pure function, so the public
 * statement page, which imports this module for its form, leaves it out of its bundle.
 */
export const adminBarrierRowSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.number(),
    page: z.string(),
    body: z.string(),
    /** where to answer: the address the reporter gave, else the member's own */
    email: z.string().nullable(),
    name: z.string().nullable(),
    user_id: z.number().nullable(),
    created_at: z.string(),
  }))();
export type AdminBarrierRow = z.infer<typeof adminBarrierRowSchema>;

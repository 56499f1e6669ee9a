import { z } from './zod.ts';
import { rowsPageSchema } from './http.ts';

// Members' reports and the admins' queue (docs/product/reports-and-moderation.md): what the calls answer.

export const REPORT_KINDS = ['post', 'chat', 'wall'] as const;
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export const REPORT_ACTIONS = ['resolve', 'dismiss', 'hide'] as const;

/** one report as the reporter and the queue see it */
export const reportDtoSchema = z.object({
  id: z.number(),
  kind: z.enum(REPORT_KINDS),
  target_id: z.number(),
  reason: z.string(),
  status: z.enum(REPORT_STATUSES),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});

/** POST /api/reports (201 when new, 200 when the member had reported it already); POST /api/admin/reports/:id */
export const reportAnswerSchema = z.object({ data: reportDtoSchema });

const reportPersonSchema = z.object({ id: z.number(), name: z.string(), url: z.string() });
export type ReportPerson = z.infer<typeof reportPersonSchema>;

/** one report of the admins' queue, with who reported it and what it is about */
export const adminReportSchema = reportDtoSchema.extend({
  reporter: reportPersonSchema.nullable(),
  target: z.object({
    text: z.string(),
    author: reportPersonSchema.nullable(),
    link: z.string().nullable(),
    hidden: z.boolean(),
    /** false when the reported thing was deleted since */
    exists: z.boolean(),
  }),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

/** GET /api/admin/reports */
export const adminReportsPageSchema = rowsPageSchema(adminReportSchema);
export type AdminReportsPage = z.infer<typeof adminReportsPageSchema>;

import { z } from './zod.ts';

/** body is HTML, sanitised on the server before it is stored and sent (docs/product/notifications.md). */
export const notificationSchema = z.object({
  id: z.number(),
  body: z.string(),
  created_at: z.string(),
  unread: z.boolean(),
  url: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const recentNotificationsResponseSchema = z.object({
  data: z.array(notificationSchema),
  unread_count: z.number(),
});

export const notificationPageResponseSchema = z.object({
  data: z.array(notificationSchema),
  page: z.number(),
  pages: z.number(),
  unread_count: z.number(),
});

export const notificationResponseSchema = z.object({ data: notificationSchema });

/** POST /api/notifications/read-all: the area's unread count after (0) */
export const readAllResponseSchema = z.object({ unread_count: z.number() });
export type ReadAllResponse = z.infer<typeof readAllResponseSchema>;

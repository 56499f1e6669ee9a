import { z } from './zod.ts';

/** A mail the server kept instead of delivering (no SMTP_URL): what the admin console and the dev outbox show. */
export const keptMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.string(),
});
export type KeptMail = z.infer<typeof keptMailSchema>;

/**
 * GET /api/admin/mail. `delivery`: 'smtp' when SMTP_URL delivers mail (nothing is kept), 'kept' when
 * mail stays on the server for admins to read (the newest first, at most 50).
 */
export const adminMailResponseSchema = z.object({
  delivery: z.enum(['smtp', 'kept']),
  messages: z.array(keptMailSchema),
});
export type AdminMailResponse = z.infer<typeof adminMailResponseSchema>;

/**
 * What a member can be told about, and how (docs/mail.md). Each topic is one row of the notifications
 * settings page. `essential` topics (account security, billing) always arrive by e-mail and cannot be
 * turned off; the others can be turned off per channel. A topic without `inApp` is e-mail only (the
 * weekly digest).
 */
export interface NotificationTopic {
  id: string;
  label: string;
  /** what the setting covers, in the member's words */
  description: string;
  group: 'account' | 'billing' | 'community' | 'mentorship' | 'digest';
  essential: boolean;
  /** the topic also shows in the header bell */
  inApp: boolean;
  /** on for a member who never changed it */
  defaults: { inApp: boolean; email: boolean };
}

export const NOTIFICATION_TOPICS = [
  {
    id: 'account',
    label: 'Account and security',
    description: 'Welcome, password resets, password and e-mail address changes.',
    group: 'account',
    essential: true,
    inApp: false,
    defaults: { inApp: false, email: true },
  },
  {
    id: 'billing',
    label: 'Billing',
    description:
      'Receipts, refunds, trial and renewal reminders, failed payments, and changes to your membership or mentorship instalments.',
    group: 'billing',
    essential: true,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'replies',
    label: 'Replies',
    description: 'Someone replies to your post or comment.',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'mentions',
    label: 'Mentions',
    description: 'Someone mentions you with @ in a post or comment.',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'watched-topics',
    label: 'Topics you watch',
    description: 'New posts in a forum topic you watch (at most one e-mail per topic an hour).',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'live-shows',
    label: 'Live shows',
    description: 'A live show you follow starts soon.',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'wall-comments',
    label: 'Comments on your wall',
    description: 'Someone writes on your profile wall.',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'friend-requests',
    label: 'Friend requests',
    description: 'Someone asks to be your friend, or accepts your request.',
    group: 'community',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'mentor-feedback',
    label: 'Mentor feedback',
    description: 'Your mentor gives feedback on a practice video.',
    group: 'mentorship',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'practice-plan',
    label: 'Practice plan',
    description: 'Your mentor updates your practice plan.',
    group: 'mentorship',
    essential: false,
    inApp: true,
    defaults: { inApp: true, email: true },
  },
  {
    id: 'digest',
    label: 'Weekly digest',
    description: 'Once a week: your practice week (minutes, streak, tempos) and the most active forum topics.',
    group: 'digest',
    essential: false,
    inApp: false,
    defaults: { inApp: false, email: false },
  },
] as const satisfies readonly NotificationTopic[];

export type NotificationTopicId = (typeof NOTIFICATION_TOPICS)[number]['id'];

export const notificationTopicIds = NOTIFICATION_TOPICS.map((t) => t.id) as [
  NotificationTopicId,
  ...NotificationTopicId[],
];

export const notificationTopic = (id: string): NotificationTopic | undefined =>
  (NOTIFICATION_TOPICS as readonly NotificationTopic[]).find((t) => t.id === id);

/** Why a topic cannot be turned off, as the settings page and docs/mail.md say it. */
export const ESSENTIAL_MAIL_NOTE =
  'Account, security and billing e-mails cannot be turned off: they tell you about your password, your sign-in address and your money.';

export const notificationSettingSchema = z.object({
  topic: z.enum(notificationTopicIds),
  in_app: z.boolean(),
  email: z.boolean(),
});
export type NotificationSetting = z.infer<typeof notificationSettingSchema>;

/** GET /api/account/notifications: every topic, with the member's choice or the default. */
export const notificationSettingsResponseSchema = z.object({
  settings: z.array(
    notificationSettingSchema.extend({
      label: z.string(),
      description: z.string(),
      essential: z.boolean(),
      has_in_app: z.boolean(),
    }),
  ),
});
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponseSchema>;

/** PUT /api/account/notifications: the topics that change (essential ones are refused). */
export const notificationSettingsUpdateSchema = z.object({
  settings: z.array(notificationSettingSchema).min(1).max(50),
});

/** GET /api/unsubscribe/:token: what the footer link turns off, before the member confirms. */
export const unsubscribeInfoSchema = z.object({
  topic: z.enum(notificationTopicIds),
  label: z.string(),
  email: z.string(),
  subscribed: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;

export const UNSUBSCRIBE_MESSAGES = {
  invalid: 'This unsubscribe link is not valid. Open your notification settings to choose which e-mails you get.',
  done: 'You are unsubscribed.',
  essential: 'This e-mail cannot be turned off: it is about your account or your billing.',
} as const;

/** GET /api/dev/outbox (development only, docs/security.md): the kept mail, newest first */
export const devOutboxResponseSchema = z.object({ messages: z.array(keptMailSchema) });

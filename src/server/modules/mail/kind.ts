import type { ReactNode } from 'react';
import type { z } from '#shared/zod';
import type { NotificationTopicId } from '#shared/mail';

/** What a template knows besides its own data. */
export interface MailContext {
  /** the recipient's name ("there" when the mail goes to an address without an account) */
  name: string;
  academyName: string;
  /**
   * The address of a page of the site. A member who is signed out meets the sign-in page first and
   * comes back to this page once signed in (the site's `?to=` redirect).
   */
  link(path: string): string;
  /** a moment in the member's time zone, else UTC: "Tuesday 25 November 2026 at 14:03 (Europe/Berlin)" */
  when(at: Date | string): string;
  /** a calendar day in the member's time zone: "25 November 2026" */
  day(at: Date | string): string;
}

/**
 * One kind of mail (docs/mail.md): its data, its notification topic (which says whether a member can
 * turn it off), and its content as a React component rendered to HTML and plain text.
 */
export interface MailKind<S extends z.ZodType = z.ZodType> {
  topic: NotificationTopicId;
  /** when it is sent, for docs and the console */
  label: string;
  schema: S;
  subject(data: z.infer<S>, ctx: MailContext): string;
  /** the line mail clients show next to the subject */
  preview(data: z.infer<S>, ctx: MailContext): string;
  body(data: z.infer<S>, ctx: MailContext): ReactNode;
  /** the data holds a secret (a reset link): it is wiped once the mail is delivered */
  secret?: boolean;
}

export const defineMail = <S extends z.ZodType>(kind: MailKind<S>): MailKind<S> => kind;

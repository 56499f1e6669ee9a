import type { z } from '#shared/zod';
import type { MAIL_KINDS, MailKindName } from './kinds.ts';

/*
 * The shapes of asking for a mail, apart from the service that sends it, so that the module's own
 * senders (the billing sweep, the digest) depend on `send` alone.
 */

/** Who a mail goes to: a member (their current address), or a member at another address, or an address alone. */
export type MailRecipient = number | { userId: number; address: string } | { address: string; name?: string };

export interface MailSendOptions {
  /**
   * Names this mail so that asking for it again sends nothing more (the receipt of payment 42:
   * `payment-42`). Unset: every call is a mail of its own.
   */
  key?: string;
  /** not before this moment (a reminder sent days ahead) */
  at?: Date;
}

export type DataOf<K extends MailKindName> = z.input<(typeof MAIL_KINDS)[K]['schema']>;

/** One mail as a feature asks for it beside an in-app notification (`notifications.notify({ mail })`). */
export type MailRequest = {
  [K in MailKindName]: { kind: K; data: DataOf<K> } & MailSendOptions;
}[MailKindName];

/** What a sender of mail needs of the mail service. */
export interface MailSender {
  send<K extends MailKindName>(
    kind: K,
    to: MailRecipient,
    data: DataOf<K>,
    options?: MailSendOptions,
  ): Promise<boolean>;
}

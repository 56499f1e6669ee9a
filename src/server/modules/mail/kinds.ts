import type { MailKind } from './kind.ts';
import { friendRequest } from './templates/community.tsx';
import { emailChanged, passwordChanged, passwordReset, welcome } from './templates/account.tsx';

/**
 * Every kind of mail the academy sends, by name (docs/mail.md lists them). A new mail: a component in
 * templates/, one line here, and a `mail.send(kind, ...)` where it happens.
 */
export const MAIL_KINDS = {
  'account.welcome': welcome,
  'account.password-reset': passwordReset,
  'account.password-changed': passwordChanged,
  'account.email-changed': emailChanged,
  'community.friend-request': friendRequest,
} satisfies Record<string, MailKind>;

export type MailKindName = keyof typeof MAIL_KINDS;

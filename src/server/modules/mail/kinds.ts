import type { MailKind } from './kind.ts';
import {
  instalmentFailed,
  instalmentReceipt,
  membershipChanged,
  paymentFailed,
  receipt,
  renewalComing,
  trialEnding,
} from './templates/billing.tsx';
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
  'billing.receipt': receipt,
  'billing.trial-ending': trialEnding,
  'billing.renewal-coming': renewalComing,
  'billing.payment-failed': paymentFailed,
  'billing.membership': membershipChanged,
  'billing.instalment-receipt': instalmentReceipt,
  'billing.instalment-failed': instalmentFailed,
  'community.friend-request': friendRequest,
} satisfies Record<string, MailKind>;

export type MailKindName = keyof typeof MAIL_KINDS;

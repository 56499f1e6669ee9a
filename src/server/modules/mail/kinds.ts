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
import { liveShowSoon, mention, reply, wallComment, watchedTopic } from './templates/community.tsx';
import { mentorFeedback, practicePlanUpdated } from './templates/mentorship.tsx';
import { weeklyDigest } from './templates/digest.tsx';
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
  // community, mentorship and digest mail a member can turn off
  'community.reply': reply,
  'community.mention': mention,
  'community.watched-topic': watchedTopic,
  'community.live-show-soon': liveShowSoon,
  'community.wall-comment': wallComment,
  'mentorship.feedback': mentorFeedback,
  'mentorship.practice-plan-updated': practicePlanUpdated,
  'digest.weekly': weeklyDigest,
} satisfies Record<string, MailKind>;

export type MailKindName = keyof typeof MAIL_KINDS;

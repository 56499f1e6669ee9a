// Wording and numbers every area shares, kept in one place; the product rules that quote them are in
// docs/product/ (pages-and-http.md, accounts.md, notifications.md, friends.md).

export const MESSAGES = {
  /** registration failed without an errors object. */
  registrationFallback: 'There was an error processing your registration. Please refresh this page and try again.',
  /** empty notification menu. */
  notificationsEmpty: 'Nothing here yet',
  /** friend action failure. */
  requestFailed: 'There was an error with your request. Please refresh the page and try again.',
  signInFailed: 'These credentials do not match our records.',
  tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
  csrfMismatch: 'Your session has expired. Please refresh the page and try again.',
  unauthenticated: 'Please sign in to continue.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'We could not find what you were looking for.',
  serverError: 'Something went wrong on our side. Please try again.',
  /** a service the request needs (the database, Redis) is away for now: 503 with Retry-After */
  unavailable: 'Backbeat is briefly unavailable. Please try again in a moment.',
  passwordResetSent: 'If an account exists for that email, we have sent a link to reset the password.',
  passwordResetInvalid: 'This password reset link is invalid or has expired.',
  /** the reset page, as it opens a link that was used, has expired, or was ended by a later password change */
  passwordResetExpired: 'This password reset link has expired or has already been used.',
  /** the reset page, as it opens a link that was never sent (often a link cut short when copied) */
  passwordResetUnknown:
    'This password reset link is not valid. Check that you opened the whole link from the email, or ask for a new one.',
  passwordChanged: 'Your password has been changed.',
  emailChanged: 'Your e-mail address has been changed.',
  /** an upload that looks like an accepted image but whose image data cannot be decoded */
  imageUnreadable: 'This image could not be read. Please choose another file.',
  /** a JSON, form or multipart body whose bytes are not UTF-8 */
  bodyNotUtf8: 'The request could not be read: it is not valid UTF-8 text.',
} as const;

/** Field messages of the registration and sign-in rules (server-side). */
export const FIELD_MESSAGES = {
  nameRequired: 'The name field is required.',
  nameTooLong: 'The name may not be greater than 100 characters.',
  emailRequired: 'The email field is required.',
  emailInvalid: 'The email must be a valid email address.',
  emailTaken: 'The email has already been taken.',
  emailConfirmationMismatch: 'The email confirmation does not match.',
  passwordRequired: 'The password field is required.',
  passwordMin: 'The password must be at least 8 characters.',
  passwordTooLong: 'The password may not be greater than 200 characters.',
  passwordConfirmationMismatch: 'The password confirmation does not match.',
  tokenRequired: 'The token field is required.',
  currentPasswordRequired: 'The current password field is required.',
  currentPasswordIncorrect: 'The current password is incorrect.',
  emailUnchanged: 'This is already the e-mail address you sign in with.',
} as const;

export const LIMITS = {
  passwordMin: 8,
  passwordMax: 200,
  nameMax: 100,
  emailMax: 254,
  /** the limits the forms enforce */
  toastAutoDismissMs: 10_000,
  toastRemoveAfterCloseMs: 1_000,
  dropdownZIndex: 1000,
  /** notifications shown in a header menu */
  recentNotifications: 8,
  notificationsPerPage: 20,
  /** session lifetimes */
  sessionTtlSeconds: 60 * 60 * 24 * 2,
  rememberedSessionTtlSeconds: 60 * 60 * 24 * 30,
  passwordResetTtlMinutes: 60,
} as const;

export const DEFAULT_AVATAR_URL = '/images/default-avatar.png';
export const CSRF_HEADER = 'X-CSRF-TOKEN';
/** the id of the page's JSON block of first answers (src/server/plugins/first-answers.ts, src/client/lib/api.ts) */
export const FIRST_ANSWERS_ELEMENT_ID = 'first-answers';
export const SOCKET_ID_HEADER = 'X-Socket-ID';

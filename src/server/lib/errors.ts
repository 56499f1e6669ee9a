import { HTTP } from '#shared/http';
import { MESSAGES } from '#shared/constants';

/**
 * What went wrong, in the domain's words. Services and plugins throw an AppError of a kind; which HTTP
 * status a kind answers with is decided here alone (STATUS_OF_KIND), with the answer's shape in
 * docs/api.md.
 */
export type ErrorKind =
  /** a request no page of ours sends: a malformed webhook, a body that is not UTF-8 */
  | 'bad-request'
  | 'unauthenticated'
  /** the card or PayPal account was refused */
  | 'payment-declined'
  | 'forbidden'
  | 'not-found'
  /** the thing's state does not allow this now: already owned, sold out, still being paid, not paused… */
  | 'conflict'
  /** it existed and is over for good: a used or expired link */
  | 'gone'
  /** the page's CSRF token is missing or stale */
  | 'csrf'
  /** the input breaks a rule; `errors` names the fields */
  | 'invalid'
  | 'rate-limited'
  /** the payment provider could not be reached or answered with an error */
  | 'provider-unavailable';

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  'bad-request': 400,
  unauthenticated: HTTP.unauthenticated,
  'payment-declined': 402,
  forbidden: HTTP.forbidden,
  'not-found': HTTP.notFound,
  conflict: 409,
  gone: 410,
  csrf: HTTP.csrf,
  invalid: HTTP.validation,
  'rate-limited': HTTP.rateLimited,
  'provider-unavailable': 502,
};

/** An error a client may see: its kind (and so its status), message and (when invalid) field messages. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.statusCode = STATUS_OF_KIND[kind];
  }
}

export class ValidationError extends AppError {
  constructor(errors: Record<string, string[]>) {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    super('invalid', first, errors);
  }
}

export const unauthenticated = () => new AppError('unauthenticated', MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError('forbidden', message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError('not-found', message);
export const tooManyRequests = (retryAfterSeconds: number, message: string = MESSAGES.tooManyAttempts) =>
  new AppError('rate-limited', message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

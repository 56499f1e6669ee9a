import { HTTP } from '#shared/http';
import { MESSAGES } from '#shared/constants';

/** An error a client may see: status, message and (for 422) field messages. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(errors: Record<string, string[]>) {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    super(HTTP.validation, first, errors);
  }
}

export const unauthenticated = () => new AppError(HTTP.unauthenticated, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(HTTP.forbidden, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(HTTP.notFound, message);
export const tooManyRequests = (retryAfterSeconds: number, message: string = MESSAGES.tooManyAttempts) =>
  new AppError(HTTP.rateLimited, message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

import { UPLOAD_ERROR_MESSAGES, UPLOAD_MESSAGES, type UploadErrorCode } from '#shared/upload';
import { TransportError, type HttpResponse } from './transport.ts';

/*
 * What the uploader checks and how it reads answers (docs/product/uploads.md): the checks made before
 * anything is sent, the error code of a failure, and which answers are a success or worth another try.
 */

/** The extension and size checks made before anything is sent (case-insensitive). */
export function precheck(
  file: { name: string; size: number },
  rules: { extensions?: readonly string[] | undefined; maxSize?: number | undefined },
): UploadErrorCode | null {
  if (rules.extensions?.length) {
    const dot = file.name.lastIndexOf('.');
    const ext = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
    if (!rules.extensions.map((e) => e.toLowerCase()).includes(ext)) return 'extension';
  }
  if (rules.maxSize !== undefined && rules.maxSize > 0 && file.size > rules.maxSize) return 'size';
  return null;
}

export interface UploadFailure {
  code: UploadErrorCode;
  message: string;
}

const serverMessage = (body: unknown) => {
  const m = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof m === 'string' && m.trim() ? m : null;
};

/**
 * Error codes (docs/product/uploads.md): no answer -> network / timeout / abort; 5xx -> server; 4xx -> denied (with the
 * server's words when it sent some); an answer whose `status` is not success -> server.
 */
export function errorFor(outcome: HttpResponse | TransportError | unknown): UploadFailure {
  if (outcome instanceof TransportError) return { code: outcome.kind, message: UPLOAD_ERROR_MESSAGES[outcome.kind] };
  if (
    outcome &&
    typeof outcome === 'object' &&
    'status' in outcome &&
    typeof (outcome as HttpResponse).status === 'number'
  ) {
    const res = outcome as HttpResponse;
    if (res.status === 0) return { code: 'network', message: UPLOAD_ERROR_MESSAGES.network };
    const words = serverMessage(res.body);
    // a file whose content is not a video we can play: sending it again cannot work (no Try again)
    if (res.status === 422 && words === UPLOAD_MESSAGES.wrongType) return { code: 'extension', message: words };
    if (res.status >= 400 && res.status < 500)
      return { code: 'denied', message: words ?? UPLOAD_ERROR_MESSAGES.denied };
    return { code: 'server', message: UPLOAD_ERROR_MESSAGES.server };
  }
  return { code: 'server', message: UPLOAD_ERROR_MESSAGES.server };
}

/** true when the answer is a success of the chunked handler: 2xx and `status: 'success'` */
export const isSuccess = (res: HttpResponse) =>
  res.status >= 200 && res.status < 300 && (res.body as { status?: unknown } | null)?.status === 'success';

/** Worth another try: no answer (not a cancel), 5xx, 408/429, or a 2xx that is not a success. */
export function isRetryable(outcome: unknown): boolean {
  if (outcome instanceof TransportError) return outcome.kind !== 'abort';
  const status = (outcome as HttpResponse | null)?.status;
  if (typeof status !== 'number') return false;
  return status === 0 || status >= 500 || status === 408 || status === 429 || (status >= 200 && status < 300);
}

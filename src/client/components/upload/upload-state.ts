import { UPLOAD_DEFAULTS, type UploadFileObject } from '#shared/upload';
import type { Transport } from './transport.ts';

/*
 * One upload's options and state (docs/product/uploads.md: the file object and its defaults): what the
 * uploader is given, the state it reports on every change, and the state a new file starts in.
 */

export interface ChunkOptions {
  enabled?: boolean;
  /** the chunked handler's address */
  action?: string;
  minSize?: number;
  maxActive?: number;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface UploaderOptions {
  /** simple uploads: POST multipart here */
  postAction?: string;
  chunk?: ChunkOptions;
  extensions?: readonly string[];
  maxSize?: number;
  /** extra fields sent with the file (simple) and the start phase (chunked), e.g. purpose */
  data?: Record<string, string>;
  headers?: Record<string, string>;
  /** whole-request timeout of simple/start/finish calls; 0 = none */
  timeout?: number;
  speedSampleMs?: number;
  /** the multipart field of a simple upload */
  fieldName?: string;
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface UploaderState {
  file: UploadFileObject;
  /** what to tell the user about the error ('' when none) */
  message: string;
  /** the chunked session, kept so that Try again resumes it */
  sessionId: string | null;
}

let ids = 0;

/** A new file: inactive, nothing sent, with the options' fields and headers. */
export function initialState(blob: Blob & { name: string }, options: UploaderOptions, timeout: number): UploaderState {
  return {
    file: {
      id: `upload-${++ids}`,
      name: blob.name,
      size: blob.size,
      type: blob.type,
      active: false,
      error: '',
      success: false,
      progress: '0.00',
      speed: 0,
      response: null,
      data: { ...(options.data ?? {}) },
      headers: { ...(options.headers ?? {}) },
      putAction: '',
      postAction: options.postAction ?? '',
      timeout,
    },
    message: '',
    sessionId: null,
  };
}

/** The chunking options with their defaults filled in. */
export function chunkSettings(c: ChunkOptions = {}) {
  return {
    enabled: c.enabled ?? UPLOAD_DEFAULTS.chunkEnabled,
    action: c.action ?? '',
    minSize: c.minSize ?? UPLOAD_DEFAULTS.chunkMinSize,
    maxActive: c.maxActive ?? UPLOAD_DEFAULTS.chunkMaxActive,
    maxRetries: c.maxRetries ?? UPLOAD_DEFAULTS.chunkMaxRetries,
    timeoutMs: c.timeoutMs ?? UPLOAD_DEFAULTS.chunkTimeoutMs,
  };
}

import { CSRF_HEADER } from '#shared/constants';

/*
 * How the uploader's requests travel (docs/product/uploads.md): a Transport takes one request and
 * answers its status and JSON body, or throws a TransportError when no answer came. The browser's is
 * XMLHttpRequest, for its upload progress events; tests pass their own.
 */

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  /** FormData (multipart) or a JSON value */
  body?: FormData | Record<string, unknown>;
  headers?: Record<string, string>;
  /** ms; 0 = none */
  timeout: number;
  signal: AbortSignal;
  /** bytes of the body sent so far */
  onProgress?: (loaded: number) => void;
}
export interface HttpResponse {
  status: number;
  body: unknown;
}
/** A request that got no answer: the connection dropped, it timed out, or it was cancelled. */
export class TransportError extends Error {
  constructor(readonly kind: 'network' | 'timeout' | 'abort') {
    super(kind);
  }
}
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

function csrfToken(): string {
  if (typeof document === 'undefined') return '';
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (meta) return meta;
  try {
    const config = JSON.parse(document.getElementById('page-config')?.textContent || '{}') as { csrfToken?: string };
    return config.csrfToken ?? '';
  } catch {
    return '';
  }
}

/** XMLHttpRequest (upload progress events), with the CSRF header as src/client/lib/api.ts sends it. */
export const xhrTransport: Transport = (req) =>
  new Promise<HttpResponse>((resolve, reject) => {
    if (req.signal.aborted) return reject(new TransportError('abort'));
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (req.method !== 'GET') {
      const token = csrfToken();
      if (token) xhr.setRequestHeader(CSRF_HEADER, token);
    }
    for (const [k, v] of Object.entries(req.headers ?? {})) xhr.setRequestHeader(k, v);
    let body: XMLHttpRequestBodyInit | null = null;
    if (req.body instanceof FormData) body = req.body;
    else if (req.body !== undefined) {
      xhr.setRequestHeader('Content-Type', 'application/json');
      body = JSON.stringify(req.body);
    }
    xhr.timeout = req.timeout;
    if (req.onProgress && body) xhr.upload.onprogress = (e) => req.onProgress?.(e.loaded);
    const onAbort = () => xhr.abort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => req.signal.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const rotated = xhr.getResponseHeader(CSRF_HEADER);
      const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
      if (rotated && meta) meta.content = rotated;
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => (done(), reject(new TransportError('network')));
    xhr.ontimeout = () => (done(), reject(new TransportError('timeout')));
    xhr.onabort = () => (done(), reject(new TransportError('abort')));
    xhr.send(body);
  });

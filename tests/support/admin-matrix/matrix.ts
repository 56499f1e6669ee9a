import type { TestApp, TestClient } from '#test/api-harness';

/**
 * The admin console's authorisation matrix (the whole product's is built from each route's declared access class): every
 * admin call, as registered, with a concrete call an admin can make. The driver
 * (src/server/modules/admin/matrix.test.ts) makes each call as a visitor (401), a free member, a subscriber and a
 * mentorship student (403, nothing changed), then as an admin (the row's status), and fails when a
 * registered admin route has no row.
 */
export interface MatrixCall {
  url: string;
  /** JSON body (state-changing calls) */
  body?: Record<string, unknown>;
  /** a multipart file instead of a JSON body */
  upload?: { field: string; filename: string; data: Buffer; type: string };
  /** extra request headers (e.g. `accept: application/json` for an address that also serves a page) */
  headers?: Record<string, string>;
}

export interface MatrixContext {
  app: TestApp;
  /** an admin's client (to create what a call needs through the console itself) */
  admin: TestClient;
  adminId: number;
}

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** the route exactly as registered, e.g. '/api/admin/courses/:id' */
  route: string;
  /** builds the concrete call; may create what it needs (a course to edit, a member to suspend) */
  call: (ctx: MatrixContext) => MatrixCall | Promise<MatrixCall>;
  /** what the admin's call answers (default 200) */
  admin?: number;
}

/** Admin-only routes that live outside /api/admin (they belong to the mentorship area's pages). */
export const ADMIN_ROUTES_OUTSIDE_API_ADMIN = [
  '/api/mentorship/students',
  '/api/mentorship/students/:id',
  '/api/mentorship/students/:id/mentor',
  '/api/mentorship/access-rules',
  '/mentorship/practice-plan-days',
  '/mentorship/practice-plan-days/:day',
  '/api/mentorship/mentors',
];

export const isAdminRoute = (url: string) =>
  url.startsWith('/api/admin/') || url === '/api/admin' || ADMIN_ROUTES_OUTSIDE_API_ADMIN.includes(url);

export async function send(client: TestClient, method: MatrixRow['method'], call: MatrixCall) {
  if (call.upload)
    return client.upload(call.url, call.upload.field, call.upload.filename, call.upload.data, call.upload.type);
  return client.request(
    method,
    call.url,
    method === 'GET' ? undefined : (call.body ?? {}),
    call.headers ? { headers: call.headers } : {},
  );
}

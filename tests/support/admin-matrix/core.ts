import { ADMIN_IMAGE } from '#shared/admin';
import { pngBytes } from '#test/images';
import type { MatrixRow } from './matrix.ts';

/** The console's own calls (src/server/modules/admin/routes.ts). */
export const rows: MatrixRow[] = [
  { method: 'GET', route: '/api/admin/overview', call: () => ({ url: '/api/admin/overview' }) },
  {
    method: 'GET',
    route: '/api/admin/audit-log',
    call: () => ({ url: '/api/admin/audit-log?q=course&sort=created_at&dir=desc' }),
  },
  { method: 'GET', route: '/api/admin/mail', call: () => ({ url: '/api/admin/mail' }) },
  { method: 'GET', route: '/api/admin/jobs', call: () => ({ url: '/api/admin/jobs' }) },
  {
    method: 'POST',
    route: '/api/admin/jobs/:id/retry',
    call: () => ({ url: '/api/admin/jobs/00000000-0000-4000-8000-000000000000/retry' }),
    admin: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/images',
    call: async () => ({
      url: '/api/admin/images',
      upload: { field: ADMIN_IMAGE.field, filename: 'cover.png', data: await pngBytes(), type: 'image/png' },
    }),
  },
];

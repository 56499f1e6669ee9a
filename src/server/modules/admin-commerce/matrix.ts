import type { MatrixRow } from '#server/modules/admin/matrix';

/** Every admin call of this module, for the authorisation matrix (modules/admin/matrix.test.ts). */
export const rows: MatrixRow[] = [];

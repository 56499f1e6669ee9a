import { describe, expect, it } from 'vitest';
import { formatDate } from './access.ts';

describe('formatDate', () => {
  it("writes what toLocaleDateString('en', short month) writes, without an Intl formatter", () => {
    for (const iso of [
      '2026-03-04T05:06:07Z',
      '2025-12-31T23:59:59Z',
      '2026-01-01T00:00:00Z',
      '2024-02-29T12:00:00Z',
      '2026-09-10T18:30:00+02:00',
    ]) {
      expect(formatDate(iso)).toBe(
        new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' }),
      );
    }
  });
});

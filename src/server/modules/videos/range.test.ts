import { expect, it } from 'vitest';
import { parseRange } from './range.ts';

it('reads one byte range of a Range header', () => {
  expect(parseRange(undefined, 100)).toBeNull();
  expect(parseRange('items=0-1', 100)).toBeNull();
  expect(parseRange('bytes=-', 100)).toBeNull();
  expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
  expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  expect(parseRange('bytes=0-0, 5-9', 100)).toEqual({ start: 0, end: 0 });
  expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  expect(parseRange('bytes=9-3', 100)).toBe('unsatisfiable');
  expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
});

import { describe, expect, it } from 'vitest';
import { dateFormat, exactTimeTitle, formatWhen } from './dates.ts';

describe('formatWhen', () => {
  const iso = '2026-03-04T05:06:07Z';
  it('shows what toLocaleString / toLocaleDateString show for the same locale and options', () => {
    expect(formatWhen(iso, undefined)).toBe(new Date(iso).toLocaleString());
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
    expect(formatWhen(iso, 'en', options)).toBe(new Date(iso).toLocaleDateString('en', options));
    expect(formatWhen(Date.parse(iso), 'en-US', { month: 'long', timeZone: 'UTC' })).toBe('March');
  });
  it('makes one formatter per locale and options', () => {
    expect(dateFormat('en', { month: 'short' })).toBe(dateFormat('en', { month: 'short' }));
    expect(dateFormat('en', { month: 'short' })).not.toBe(dateFormat('en', { month: 'long' }));
    expect(dateFormat('en', { month: 'short' })).not.toBe(dateFormat('fr', { month: 'short' }));
  });
});

describe('exactTimeTitle', () => {
  it('writes the exact time as the title when the pointer first reaches the time, and keeps it', () => {
    const iso = '2026-03-04T05:06:07Z';
    const element = { title: '' } as HTMLElement;
    const { onPointerEnter } = exactTimeTitle(iso);
    onPointerEnter({ currentTarget: element });
    expect(element.title).toBe(new Date(iso).toLocaleString());
    element.title = 'kept';
    onPointerEnter({ currentTarget: element });
    expect(element.title).toBe('kept');
  });
});

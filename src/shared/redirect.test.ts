import { describe, expect, it } from 'vitest';
import { loginUrl, safeRedirect } from './redirect.ts';

describe('safeRedirect', () => {
  it('keeps same-site relative paths with query and hash', () => {
    expect(safeRedirect('/mentorship/checkout')).toBe('/mentorship/checkout');
    expect(safeRedirect('/checkout/course/register?course=3&affiliate=x#top')).toBe('/checkout/course/register?course=3&affiliate=x#top');
  });
  it.each(['https://evil.test', '//evil.test', '/\\evil.test', '\\\\evil.test', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x', ' /x', '', null, 42, '/x\ny'])(
    'falls back for %j',
    (target) => {
      const out = safeRedirect(target);
      expect(out === '/dashboard' || (out.startsWith('/') && !out.startsWith('//'))).toBe(true);
      if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.includes('\\') || target.includes('\n')) expect(out).toBe('/dashboard');
    },
  );
  it('uses the given fallback', () => expect(safeRedirect('http://x', '/order')).toBe('/order'));
  it('builds the login address with an encoded target', () => expect(loginUrl('/a?b=1&c=2')).toBe('/login?to=%2Fa%3Fb%3D1%26c%3D2'));
});

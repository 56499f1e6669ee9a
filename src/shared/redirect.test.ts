import { describe, expect, it } from 'vitest';
import { loginUrl, REDIRECT_MAX, safeRedirect, siteAddress } from './redirect.ts';

const SITE = 'https://backbeat.example';

/**
 * Where a browser on SITE ends up when it is sent `location` (as a Location header or
 * `window.location.assign`): the browser's own URL parser decides.
 */
const followed = (location: string) => new URL(location, `${SITE}/some/page`);

// Values that lead (or could lead, after one more decoding step) off the site: each must be refused.
const REFUSED: Array<[string, unknown]> = [
  // dot segments that normalise to a protocol-relative path
  ['single dot then two slashes', '/.//evil.example/x'],
  ['climbing above the root', '/a/../..//evil.example'],
  ['climbing, then a dot segment', '/a/../.././/evil.example'],
  ['encoded dots', '/%2e%2e//evil.example'],
  ['encoded dots, upper case', '/%2E%2E//evil.example'],
  ['encoded single dot', '/%2e//evil.example'],
  // encoded slashes and backslashes
  ['encoded slashes', '/%2f%2fevil.example'],
  ['encoded slashes, upper case', '/%2F%2Fevil.example'],
  ['fully encoded', '%2F%2Fevil.example'],
  ['encoded backslash', '/%5cevil.example'],
  ['encoded backslash, upper case', '/%5C%5Cevil.example'],
  // backslashes (a browser reads them as "/")
  ['slash backslash', '/\\evil.example'],
  ['backslash slash', '\\/evil.example'],
  ['two backslashes', '\\\\evil.example'],
  ['slash backslash slash', '/\\/evil.example'],
  ['backslash inside', '/a\\..\\..\\/evil.example'],
  // tabs and newlines (a browser drops them)
  ['tab between slashes', '/\t/evil.example'],
  ['newline between slashes', '/\n/evil.example'],
  ['CRLF between slashes', '/\r\n/evil.example'],
  ['header injection', '/x\r\nSet-Cookie: a=b'],
  ['NUL', '/x\u0000y'],
  ['C1 control', '/x\u0085y'],
  ['newline inside', '/x\ny'],
  ['leading space', ' //evil.example'],
  // other hosts and schemes
  ['absolute https', 'https://evil.example/x'],
  ['absolute http', 'http://evil.example'],
  ['scheme without slashes', 'http:evil.example'],
  ['protocol-relative', '//evil.example/x'],
  ['three slashes', '///evil.example'],
  ['four slashes', '////evil.example'],
  ['javascript:', 'javascript:alert(1)'],
  ['javascript: mixed case', 'JaVaScRiPt:alert(1)'],
  ['javascript: with a tab', 'java\tscript:alert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['vbscript:', 'vbscript:msgbox(1)'],
  ['relative without slash', 'evil.example'],
  ['query only', '?x=1'],
  ['hash only', '#x'],
  // userinfo tricks
  ['user info after two slashes', '//user@evil.example'],
  ['user info with our host', '//backbeat.example@evil.example'],
  ['user info, backslash', '/\\user@evil.example'],
  // Unicode look-alikes of "/" and "." in front of a host
  ['fullwidth solidus twice', '\uff0f\uff0fevil.example'],
  ['division slash twice', '\u2215\u2215evil.example'],
  ['fraction slash twice', '\u2044\u2044evil.example'],
  // sizes and types
  ['too long', `/${'a'.repeat(REDIRECT_MAX)}`],
  ['empty', ''],
  ['null', null],
  ['undefined', undefined],
  ['number', 42],
  ['object', { toString: () => '/dashboard' }],
  ['array', ['/dashboard']],
];

// Values that stay on the site: accepted, as the normalised address a browser would follow.
const ACCEPTED: Array<[string, string, string]> = [
  ['dashboard', '/dashboard', '/dashboard'],
  ['query and hash', '/lessons/1?x=1#c', '/lessons/1?x=1#c'],
  ['forum page', '/forums/topic/3?page=2', '/forums/topic/3?page=2'],
  [
    'checkout with flags',
    '/checkout/course/register?course=3&affiliate=x#top',
    '/checkout/course/register?course=3&affiliate=x#top',
  ],
  ['root', '/', '/'],
  ['a nested sign-in target', '/login?to=%2Flessons%2F3', '/login?to=%2Flessons%2F3'],
  ['encoded slash in the query only', '/forums?q=a%2Fb', '/forums?q=a%2Fb'],
  ['dot segments inside the site', '/a/./b/../lessons', '/a/lessons'],
  ['climbing above the root to a path', '/a/../../lessons', '/lessons'],
  ['an "@" in the path', '/@evil.example', '/@evil.example'],
  ['a ":" in the path', '/x:y', '/x:y'],
  // look-alikes after a real "/" stay in the path, percent-encoded
  ['fullwidth solidus in the path', '/\uff0fevil.example', '/%EF%BC%8Fevil.example'],
  ['division slash in the path', '/\u2215evil.example', '/%E2%88%95evil.example'],
  ['ideographic full stop', '/\u3002evil', '/%E3%80%82evil'],
  ['space inside the query', '/forums?q=a b', '/forums?q=a%20b'],
];

describe('siteAddress: refused', () => {
  it.each(REFUSED)('%s', (_label, target) => {
    expect(siteAddress(target)).toBeNull();
    expect(siteAddress(target, SITE)).toBeNull();
    expect(safeRedirect(target)).toBe('/dashboard');
  });
});

describe('siteAddress: accepted', () => {
  it.each(ACCEPTED)('%s', (_label, target, normalised) => {
    expect(siteAddress(target)).toBe(normalised);
    expect(safeRedirect(target, '/x')).toBe(normalised);
    // the answer, followed by a browser, stays on the site at that very address
    const there = followed(normalised);
    expect(there.origin).toBe(SITE);
    expect(there.pathname + there.search + there.hash).toBe(normalised);
  });
});

describe('siteAddress: what a browser does with every answer', () => {
  it('never answers anything a browser would take off the site', () => {
    for (const [, target] of [...REFUSED, ...ACCEPTED.map(([l, t]) => [l, t] as [string, unknown])]) {
      for (const origin of [undefined, SITE]) {
        const out = safeRedirect(target, '/dashboard', origin);
        expect(followed(out).origin, `${JSON.stringify(target)} -> ${out}`).toBe(SITE);
        expect(out.startsWith('/') && !out.startsWith('//'), out).toBe(true);
        // and judging the answer again changes nothing
        expect(siteAddress(out)).toBe(out);
      }
    }
  });
});

describe('siteAddress with the site origin', () => {
  it('accepts an absolute address on the site, answering its path', () => {
    expect(siteAddress(`${SITE}/api/products/paypal/return?order=3`, SITE)).toBe('/api/products/paypal/return?order=3');
    expect(siteAddress('HTTPS://BACKBEAT.EXAMPLE/x', SITE)).toBe('/x');
  });
  it('refuses another origin, another scheme or port, and user info', () => {
    for (const t of [
      'https://backbeat.example.evil.example/x',
      'http://backbeat.example/x',
      'https://backbeat.example:444/x',
      'https://user@backbeat.example/x',
      `${SITE}//evil.example`,
      `${SITE}/.//evil.example`,
    ]) {
      expect(siteAddress(t, SITE), t).toBeNull();
    }
  });
  it('without the origin, absolute addresses are refused even on the site', () =>
    expect(siteAddress(`${SITE}/x`)).toBeNull());
});

describe('safeRedirect', () => {
  it('uses the given fallback', () => expect(safeRedirect('http://x', '/order')).toBe('/order'));
  it('builds the login address with an encoded target', () =>
    expect(loginUrl('/a?b=1&c=2')).toBe('/login?to=%2Fa%3Fb%3D1%26c%3D2'));
});

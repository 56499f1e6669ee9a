import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginUrl } from '#shared/redirect';
import type { TestApp } from '#test/api-harness';
import { createTestApp } from '#test/api-harness';
import { MAIL_SAMPLES, SAMPLE_SITE } from '#test/mail-samples';
import { MAIL_KINDS } from './kinds.ts';
import { renderMailFor } from './render.ts';

/**
 * Every link a mail carries leads to a page of the site, and a member who is signed out when they
 * follow it meets the sign-in page (`/login?to=`) and lands on that very page once signed in; the
 * unsubscribe page and the password pages open signed out.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** the site's own addresses in a mail's HTML, as paths with their query (a fragment stays in the browser) */
function sitePaths(html: string, appUrl: string): string[] {
  const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
  const ours = hrefs.filter((h) => h.startsWith(`${appUrl}/`));
  // nothing points elsewhere: a mail's links are the academy's pages
  expect(hrefs.filter((h) => !ours.includes(h) && !h.startsWith('mailto:'))).toEqual([]);
  return [...new Set(ours.map((h) => h.slice(appUrl.length).split('#')[0]!))];
}

/** pages a signed-out visitor opens as they are */
const OPEN_SIGNED_OUT = [/^\/unsubscribe\/[\w.-]+$/, /^\/password\/forgot$/, /^\/password\/reset\/[\w-]+$/];

describe('links in mail', () => {
  it.each(Object.keys(MAIL_KINDS))(
    'the %s mail takes a signed-out member through sign-in to each page',
    async (kind) => {
      const member = await t.createUser({ name: 'Linked Drummer', entitlements: ['membership', 'mentorship'] });
      // the samples' own absolute links (a reset link) name the look test's site: this app's instead
      const data = JSON.parse(
        JSON.stringify(MAIL_SAMPLES[kind as keyof typeof MAIL_SAMPLES]).replaceAll(SAMPLE_SITE, t.config.appUrl),
      ) as unknown;
      const mail = await renderMailFor(t.config, t.app.deps.mail.tokens, kind, data, {
        address: member.email,
        name: member.name,
        userId: member.id,
        timeZone: null,
      });
      const paths = sitePaths(mail.html, t.config.appUrl);
      // at least the notification settings in the footer
      expect(paths).toContain('/account/notifications');
      for (const path of paths) {
        // the plain-text part carries the same address
        expect(mail.text, `${kind}: ${path} in the plain text`).toContain(`${t.config.appUrl}${path}`);
        const visitor = await t.client();
        const first = await visitor.page(path);
        if (OPEN_SIGNED_OUT.some((p) => p.test(path))) {
          expect(first.statusCode, `${kind}: ${path} signed out`).toBe(200);
          continue;
        }
        expect(first.statusCode, `${kind}: ${path} signed out`).toBe(302);
        expect(first.headers.location).toBe(loginUrl(path));
        // the sign-in page sends its `to` with the form, and the answer leads back to the mail's page
        const to = new URLSearchParams(String(first.headers.location).split('?')[1]).get('to');
        const signIn = await visitor.post('/login', { email: member.email, password: member.password, to });
        expect(signIn.statusCode).toBe(200);
        expect(signIn.json().redirect, `${kind}: ${path} after sign-in`).toBe(path);
        expect((await visitor.page(path)).statusCode, `${kind}: ${path} signed in`).toBe(200);
      }
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BARRIER_MESSAGES } from '#shared/accessibility';
import { DESKTOP, launchBrowser, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shoot = (page: Page, name: string) => reviewShot(page, `accessibility-statement/${name}.png`);
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? null);

describe('the accessibility statement', () => {
  it('is linked from the footer; a visitor reports a barrier and an admin reads it', async () => {
    const visitor = await newPage(browser, PHONE);
    await visitor.goto('/courses');
    await visitor.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' }).click();
    await visitor.getByRole('heading', { level: 1, name: 'Accessibility' }).waitFor();
    expect(new URL(visitor.url()).pathname).toBe('/accessibility');
    await visitor.getByText('WCAG) 2.2 at level AA', { exact: false }).waitFor();
    await visitor.getByText('EN 301 549', { exact: false }).first().waitFor();
    await visitor.getByRole('heading', { name: 'Known limitations' }).waitFor();
    await visitor.getByText(/last reviewed on \d{1,2} \w+ \d{4}/).waitFor();
    await shoot(visitor, 'accessibility-390');

    const form = visitor.getByRole('form', { name: 'Report a barrier' });
    // nothing written: the description is marked, described by its error, and takes focus
    await form.getByRole('button', { name: 'Send report' }).click();
    const description = form.getByLabel('What happened?');
    await form.getByText(BARRIER_MESSAGES.descriptionRequired).waitFor();
    expect(await description.getAttribute('aria-invalid')).toBe('true');
    expect(await description.getAttribute('aria-describedby')).toMatch(/-description-err/);
    expect(await focused(visitor)).toBe('description');
    await form.getByRole('alert').getByText('Please correct this field: What happened.').waitFor();

    // the server's answer about the address goes under that field
    const tag = `Barrier ${Date.now()}`;
    await form.getByLabel('Where did it happen?').fill('/metronome');
    await description.fill(`${tag}: the tempo is not read out when I press the arrow keys with NVDA.`);
    expect(await description.getAttribute('aria-invalid')).toBeNull();
    await form.getByLabel(/Your email address/).fill('not-an-address');
    await form.getByRole('button', { name: 'Send report' }).click();
    await form.getByText(BARRIER_MESSAGES.emailInvalid).waitFor();
    expect(await focused(visitor)).toBe('email');
    await shoot(visitor, 'accessibility-error-390');

    await form.getByLabel(/Your email address/).fill('reader@example.test');
    await form.getByRole('button', { name: 'Send report' }).click();
    const done = visitor.getByRole('status').filter({ hasText: BARRIER_MESSAGES.sent });
    await done.waitFor();
    await expect.poll(() => done.evaluate((el) => el === document.activeElement)).toBe(true);
    await visitor.setViewportSize(DESKTOP);
    await shoot(visitor, 'accessibility-sent-1280');
    // another report starts on an empty form, at its first field
    await done.getByRole('button', { name: 'Report another barrier' }).click();
    await expect.poll(() => focused(visitor)).toBe('page');
    expect(await form.getByLabel('What happened?').inputValue()).toBe('');

    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, '/admin/accessibility-reports');
    await admin.getByRole('heading', { level: 1, name: 'Accessibility reports' }).waitFor();
    const row = admin.getByText(tag, { exact: false }).first();
    await row.waitFor();
    await admin.getByRole('link', { name: 'reader@example.test' }).first().waitFor();
    await shoot(admin, 'accessibility-reports-1280');
    await admin.setViewportSize(PHONE);
    await shoot(admin, 'accessibility-reports-390');
    expect(visitor.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  });
});

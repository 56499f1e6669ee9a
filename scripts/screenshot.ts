/**
 * Phone and desktop screenshots of a page, optionally signed in:
 *   npx tsx scripts/screenshot.ts http://localhost:3000/dashboard shots/dashboard --as member@demo.test [--click "Account menu"]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { findChromium } from './find-chromium.ts';

const [url, prefix, ...rest] = process.argv.slice(2);
if (!url || !prefix) {
  console.error(
    'usage: tsx scripts/screenshot.ts <url> <out-prefix> [--as email] [--password pw] [--click "button name"]',
  );
  process.exit(2);
}
const opt = (name: string) => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const email = opt('--as');
const password = opt('--password') ?? 'drumsdemo1';
const click = opt('--click');

const info = await findChromium();
const browser = await chromium.launch({ executablePath: info.path, args: info.args, headless: true });
mkdirSync(path.dirname(prefix), { recursive: true });
for (const [name, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const) {
  const page = await browser.newPage({ viewport });
  if (email) {
    const origin = new URL(url).origin;
    await page.goto(`${origin}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
  }
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  if (click) {
    await page.getByRole('button', { name: click }).first().click();
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: `${prefix}-${name}.png`, fullPage: false });
  await page.close();
}
await browser.close();
console.log(`wrote ${prefix}-phone.png and ${prefix}-desktop.png`);

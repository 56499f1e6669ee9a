import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SONG } from '#shared/songmapper';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const status = (p: Page) => p.getByTestId('save-status');

/** a fresh drummer of this test's own at `path`, so the songs and templates it saves are nobody else's */
async function drummerAt(p: Page, path: string) {
  await newDrummer(p);
  await p.goto(path);
}

it('a member builds a song that saves itself, gets its address without a reload, reloads it, shares it as PDF and deletes it', async () => {
  const p = await newPage(browser, DESKTOP);
  await drummerAt(p, '/songmapper');
  await p.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

  await p.getByLabel('Song title').fill('Highway to Hell');
  await p.getByLabel('BPM').pressSequentially('1a1x6z99');
  expect(await p.getByLabel('BPM').inputValue()).toBe('1169');
  await p.getByLabel('BPM').fill('116');
  await status(p).getByText(SONG.saving).waitFor();
  await status(p).getByText(SONG.saved).waitFor();
  await p.waitForURL(/\/songmapper\/[A-Za-z0-9_-]{22}$/);
  const id = p.url().split('/').pop()!;
  // the address changed without a reload, and the indicator clears after 1.5 s
  expect(await p.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  await expect.poll(async () => (await status(p).textContent())?.trim(), { timeout: 4000 }).toBe('');

  // the default template asks first, in the product's words
  await p.getByRole('button', { name: 'Templates' }).click();
  await p.getByRole('menuitem', { name: 'Use the default template' }).click();
  const confirm = p.getByRole('alertdialog');
  await confirm.getByText(SONG.confirmDefaultTemplate).waitFor();
  await confirm.getByRole('button', { name: 'Use template' }).click();
  const sections = p.getByRole('list', { name: 'Sections' }).getByRole('listitem');
  await expect.poll(() => sections.count()).toBe(9);
  expect(await p.getByLabel('Song title').inputValue()).toBe('Highway to Hell');

  // a section of our own: "Other..." title and division, moved up, then one removed
  await p.getByRole('button', { name: 'Add section' }).click();
  await p.getByLabel('Section 10 title').selectOption('Other...');
  await p.getByLabel('Section 10 custom title').fill('Breakdown');
  await p.getByLabel('Division').last().selectOption('Other...');
  await p.getByLabel('Section 10 custom division').fill('Half-time feel');
  await sections.last().getByLabel('Measures').fill('12');
  await p.getByRole('button', { name: 'Move section 10 up' }).click();
  expect(await p.getByLabel('Section 9 custom title').inputValue()).toBe('Breakdown');
  await p.getByRole('button', { name: 'Remove section 1', exact: true }).click();
  await expect.poll(() => sections.count()).toBe(9);
  await status(p).getByText(SONG.saved).waitFor();

  await p.reload();
  await expect.poll(() => sections.count()).toBe(9);
  expect(await p.getByLabel('Song title').inputValue()).toBe('Highway to Hell');
  expect(await p.getByLabel('Section 8 custom title').inputValue()).toBe('Breakdown');
  expect(await p.getByLabel('Section 8 custom division').inputValue()).toBe('Half-time feel');
  expect(await p.getByLabel('Section 1 title').inputValue()).toBe('Verse');
  await p
    .getByRole('complementary')
    .getByRole('link', { name: /Highway to Hell/ })
    .waitFor();

  // the share link is a PDF anyone can open
  const anonymous = await newPage(browser, PHONE);
  const pdf = await anonymous.request.get(`/songmapper/pdf/${id}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  expect(await p.getByRole('link', { name: 'PDF' }).getAttribute('href')).toBe(`/songmapper/pdf/${id}`);

  // another member cannot open it in the mapper
  const other = await newPage(browser, PHONE);
  await drummerAt(other, `/songmapper/${id}`);
  await other.getByText('We could not find that song').waitFor();

  // delete: the product's confirmation, then back to the new-song page and out of the list
  await p.getByRole('button', { name: 'Delete song' }).click();
  await p.getByRole('alertdialog').getByText(SONG.confirmDelete).waitFor();
  await p.getByRole('alertdialog').getByRole('button', { name: 'Delete song' }).click();
  await p.waitForURL((u) => u.pathname === '/songmapper');
  await p.getByRole('complementary').getByText('Your mapped songs will be listed here.', { exact: false }).waitFor();
  expect((await anonymous.request.get(`/songmapper/pdf/${id}`)).status()).toBe(404);
  expect(p.errors).toEqual([]);
});

it('a failed autosave says so, keeps the edit and lands it on the retry; a template needs a title', async () => {
  const p = await newPage(browser, PHONE);
  await drummerAt(p, '/songmapper');
  // the network drops the first save
  let dropped = 0;
  await p.route('**/songmapper', async (route) => {
    if (route.request().method() === 'POST' && dropped === 0) {
      dropped += 1;
      return route.abort('internetdisconnected');
    }
    return route.continue();
  });
  await p.getByLabel('Song title').fill('Thunderstruck');
  await status(p).getByText(SONG.saveFailed).waitFor();
  expect(p.url()).toMatch(/\/songmapper$/);
  await status(p).getByText(SONG.saved).waitFor({ timeout: 8000 });
  await p.waitForURL(/\/songmapper\/[A-Za-z0-9_-]{22}$/);
  await p.reload();
  expect(await p.getByLabel('Song title').inputValue()).toBe('Thunderstruck');

  await p.getByRole('button', { name: 'Templates' }).click();
  await p.getByRole('menuitem', { name: 'Save as template...' }).click();
  const dialog = p.getByRole('dialog', { name: 'Save as template' });
  await dialog.getByRole('button', { name: 'Save template' }).click();
  await dialog.getByText(SONG.templateTitleRequired).waitFor();
  await dialog.getByLabel('Template title').fill('Stadium rock');
  await dialog.getByRole('button', { name: 'Save template' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await p.getByRole('button', { name: 'Templates' }).click();
  await p.getByRole('menuitem', { name: 'Stadium rock', exact: true }).waitFor();
  await p.keyboard.press('Escape');
});

it('on a phone the song actions fit one row: every control whole, none covered, Share and Delete in the More menu', async () => {
  const p = await newPage(browser, PHONE);
  await drummerAt(p, '/songmapper');
  await p.getByLabel('Song title').fill('Back in Black');
  await p.waitForURL(/\/songmapper\/[A-Za-z0-9_-]{22}$/);
  const actions = p.getByRole('group', { name: 'Song actions' });
  await actions.getByRole('link', { name: 'PDF' }).waitFor();

  for (const width of [PHONE.width, 360]) {
    await p.setViewportSize({ width, height: PHONE.height });
    const controls = await actions.locator('button, a').filter({ visible: true }).all();
    const names = await Promise.all(
      controls.map((c) => c.evaluate((e) => e.getAttribute('aria-label') ?? e.textContent)),
    );
    expect(names.map((n) => n?.trim())).toEqual(['Templates', 'PDF', 'More song actions']);
    const boxes = await Promise.all(controls.map(async (c) => (await c.boundingBox())!));
    for (const [i, box] of boxes.entries()) {
      // whole on the screen, at full tap size, on the row's line
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(Math.abs(box.y - boxes[0]!.y)).toBeLessThan(2);
      for (const other of boxes.slice(i + 1)) {
        const apart =
          box.x + box.width <= other.x ||
          other.x + other.width <= box.x ||
          box.y + box.height <= other.y ||
          other.y + other.height <= box.y;
        expect(apart).toBe(true);
      }
      // nothing drawn over it: its own centre hits it
      const hit = await controls[i]!.evaluate((e) => {
        const r = e.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return top !== null && e.contains(top);
      });
      expect(hit).toBe(true);
    }
  }

  await actions.getByRole('button', { name: 'More song actions' }).click();
  await p.getByRole('menuitem', { name: 'Copy share link' }).waitFor();
  await p.getByRole('menuitem', { name: 'Delete song' }).click();
  await p.getByRole('alertdialog').getByText(SONG.confirmDelete).waitFor();
  await p.getByRole('alertdialog').getByRole('button', { name: 'Delete song' }).click();
  await p.waitForURL((u) => u.pathname === '/songmapper');
  expect(p.errors).toEqual([]);
});

it('the mentorship area shows the same tool in its dark look', async () => {
  const p = await newPage(browser, DESKTOP);
  await signIn(p, 'admin@demo.test', undefined, '/mentorship/songmapper');
  await p.getByLabel('Song title').fill('Mentor map');
  await p.waitForURL(/\/mentorship\/songmapper\/[A-Za-z0-9_-]{22}$/);
  expect(await p.evaluate(() => document.documentElement.classList.contains('theme-dark'))).toBe(true);
  await p
    .getByRole('complementary')
    .getByRole('link', { name: /Mentor map/ })
    .waitFor();
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const stamp = Date.now().toString(36);
const wall = (p: Page) => p.getByTestId('profile-wall');
/** the top-level comment (with its replies) holding this text */
const thread = (p: Page, text: string) =>
  wall(p)
    .locator('li[data-testid^="wall-comment-"]', { has: p.getByText(text, { exact: true }) })
    .first();

/** a fresh drummer whose wall this test writes on, so the demo accounts' walls stay as they are */
async function ownWall(viewport = DESKTOP) {
  const owner = await newPage(browser, viewport);
  return { page: owner, ...(await newDrummer(owner)) };
}

/** a fresh drummer signed in on `page`, looking at `path` */
async function drummerAt(page: Page, path: string, name?: string) {
  const drummer = await newDrummer(page, name ? { name } : {});
  await page.goto(path);
  return drummer;
}

async function write(p: Page, text: string) {
  const box = wall(p).getByRole('textbox', { name: 'Write on this wall' });
  await box.fill(text);
  await wall(p).getByTestId('wall-composer').getByRole('button', { name: 'Post' }).click();
  await wall(p).getByText(text, { exact: true }).waitFor();
}

async function reply(p: Page, parentText: string, text: string) {
  const t = thread(p, parentText);
  await t.getByRole('button', { name: 'Reply', exact: true }).first().click();
  const form = t.locator('form[data-testid^="reply-form-"]');
  // an empty reply cannot be sent
  expect(await form.getByRole('button', { name: 'Post' }).isDisabled()).toBe(true);
  await form.getByRole('textbox', { name: 'Your reply' }).fill(text);
  await form.getByRole('button', { name: 'Post' }).click();
  await t.getByText(text, { exact: true }).waitFor();
  // the reply box closes once the reply is in
  await form.waitFor({ state: 'detached' });
}

describe('profile walls', () => {
  it('shows the empty-wall text', async () => {
    const p = await newPage(browser, PHONE);
    await signIn(p, 'member@demo.test', undefined, '/profile/sam-okafor');
    await wall(p).getByText(COMMUNITY_MESSAGES.wallEmpty).waitFor();
    expect(await wall(p).getByRole('button', { name: 'Post' }).isDisabled()).toBe(true);
    expect(p.errors).toEqual([]);
  });

  it('a member writes on another wall, replies, sees "Load more" after 5 replies and deletes their comment', async () => {
    const owner = await ownWall();
    const p = await newPage(browser, DESKTOP);
    const member = await drummerAt(p, owner.profilePath);
    const first = `Great groove video! ${stamp}`;
    await write(p, first);
    // the new comment is first
    await expect.poll(() => wall(p).locator('li[data-testid^="wall-comment-"]').first().textContent()).toContain(first);
    for (let i = 1; i <= 6; i++) await reply(p, first, `reply ${i} ${stamp}`);
    await p.reload();
    const t = thread(p, first);
    await t.getByText(`reply 5 ${stamp}`, { exact: true }).waitFor();
    expect(await t.getByText(`reply 6 ${stamp}`, { exact: true }).count()).toBe(0);
    await t.getByRole('button', { name: 'Load more' }).click();
    await t.getByText(`reply 6 ${stamp}`, { exact: true }).waitFor();
    expect(await t.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // delete with the confirmation: the comment and its replies go
    await t
      .getByRole('button', { name: new RegExp(`^Delete comment by ${member.name}`) })
      .first()
      .click();
    const confirm = p.getByRole('alertdialog');
    await confirm.getByText(COMMUNITY_MESSAGES.wallDeleteConfirm).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => wall(p).getByText(first, { exact: true }).count()).toBe(0);
    expect(await wall(p).getByText(`reply 1 ${stamp}`, { exact: true }).count()).toBe(0);
    await p.reload();
    // loaded: either other comments or the empty-wall text
    await wall(p)
      .locator('li[data-testid^="wall-comment-"]')
      .first()
      .or(wall(p).getByText(COMMUNITY_MESSAGES.wallEmpty))
      .waitFor();
    expect(await wall(p).getByText(first, { exact: true }).count()).toBe(0);
    expect(p.errors).toEqual([]);
  });

  it('the wall owner deletes a comment someone else wrote; others see no delete button on it', async () => {
    const owner = await ownWall();
    const writer = await newPage(browser, PHONE);
    const author = await drummerAt(writer, owner.profilePath);
    const text = `Owner will remove this ${stamp}`;
    await write(writer, text);

    const stranger = await newPage(browser, PHONE);
    await drummerAt(stranger, owner.profilePath);
    await thread(stranger, text).waitFor();
    expect(
      await thread(stranger, text)
        .getByRole('button', { name: /^Delete comment/ })
        .count(),
    ).toBe(0);

    const o = owner.page;
    await o.goto(owner.profilePath);
    await thread(o, text)
      .getByRole('button', { name: `Delete comment by ${author.name}` })
      .click();
    await o.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => wall(o).getByText(text, { exact: true }).count()).toBe(0);
    expect(o.errors).toEqual([]);
  });

  it('a member reports a wall comment and the admin resolves it in /admin/reports', async () => {
    const owner = await ownWall();
    const writer = await newPage(browser, DESKTOP);
    await drummerAt(writer, owner.profilePath);
    const text = `Buy my drum sticks ${stamp}`;
    await write(writer, text);

    const reporter = await newPage(browser, PHONE);
    await drummerAt(reporter, owner.profilePath);
    await thread(reporter, text).getByRole('button', { name: 'Report this comment' }).click();
    const dialog = reporter.getByRole('dialog', { name: 'Report this comment' });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText(COMMUNITY_MESSAGES.reportReasonRequired).waitFor();
    const reason = `Advertising ${stamp}`;
    await dialog.getByLabel('Reason').fill(reason);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await reporter.getByText(COMMUNITY_MESSAGES.reportThanks).waitFor();

    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test');
    await admin.getByRole('button', { name: 'Account menu' }).click();
    await admin.getByRole('menuitem', { name: 'Reports' }).click();
    await admin.waitForURL('**/admin/reports');
    const card = admin.locator('li[data-testid^="report-"]', { has: admin.getByText(reason, { exact: true }) });
    await card.getByText(text, { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Resolve' }).click();
    await admin.getByText('Report resolved.').waitFor();
    await expect.poll(() => admin.getByText(reason, { exact: true }).count()).toBe(0);
    await admin.getByRole('tab', { name: 'resolved' }).click();
    await admin.getByText(reason, { exact: true }).waitFor();
    expect(admin.errors).toEqual([]);

    // a member cannot open the queue
    const res = await reporter.request.get('/api/admin/reports');
    expect(res.status()).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { DESKTOP, launchBrowser, newDrummer, newPage, painted, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

const shot = (page: Page, name: string) => reviewShot(page, `discussion/${name}.png`);

/** A unique text per run: the e2e server is shared by every spec file. */
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The API from inside the page (session cookie and CSRF token of the signed-in member). */
async function apiCall<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const res = await fetch(url, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-TOKEN': token },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

const postCard = (page: Page, text: string) => page.locator('article[data-post-id]').filter({ hasText: text }).last();
/** the same post whatever its text becomes (editing changes it) */
async function pinned(page: Page, text: string) {
  const card = postCard(page, text);
  await card.waitFor();
  return page.locator(`article[data-post-id="${await card.getAttribute('data-post-id')}"]`);
}

describe('lesson discussion (member)', () => {
  it('reply, reply to a reply, like, share, edit in place with earlier versions, delete with confirm, and individual thread mode', async () => {
    const page = await newPage(browser, DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const me = await newDrummer(page, { member: true });
    await page.goto('/lessons/1');
    const discussion = page.getByTestId('lesson-discussion');
    await discussion.waitFor();
    const tag = stamp();

    // the Post button is active only when the message is not empty
    const top = discussion.getByTestId('reply-form').first();
    const post = top.getByRole('button', { name: 'Post', exact: true });
    expect(await post.isDisabled()).toBe(true);
    const box = top.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder);
    const before = await box.evaluate((el) => el.getBoundingClientRect().height);
    await box.fill(
      `Parent ${tag}\nline two\nline three\nline four https://www.youtube.com/watch?v=dQw4w9WgXcQ and https://example.com/a/very/long/path/that/goes/on/and/on/for/ever`,
    );
    expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(before);
    expect(await post.isDisabled()).toBe(false);
    await post.click();
    const parent = postCard(page, `Parent ${tag}`);
    await parent.waitFor();
    // posted: the box is empty again and back to its first height
    expect(await box.inputValue()).toBe('');
    expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBe(before);
    // the linked video is a poster with a play button; the host's player loads only when asked for
    const video = parent.locator('iframe[src*="youtube-nocookie.com/embed/dQw4w9WgXcQ"]');
    expect(await video.count()).toBe(0);
    await parent.getByRole('button', { name: /^Play video: Video in .+'s post$/ }).click();
    await video.waitFor();
    expect(new URL((await video.getAttribute('src'))!).searchParams.get('autoplay')).toBe('1');
    // link text truncated to 40 characters in the middle
    expect((await parent.getByRole('link', { name: /example\.com/ }).innerText()).length).toBe(40);
    expect(await box.inputValue()).toBe('');

    // reply: "Post comment..." opens the box under the parent
    const thread = page.getByTestId('thread-parent').filter({ hasText: `Parent ${tag}` });
    await thread.getByRole('button', { name: 'Post comment...' }).click();
    await thread.getByText(`Replying to ${me.name}`).waitFor();
    await thread.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).fill(`Bravo ${tag}`);
    await thread.getByRole('button', { name: 'Post', exact: true }).click();
    const child = await pinned(page, `Bravo ${tag}`);
    // reply to the reply
    await child.getByRole('button', { name: 'Reply' }).click();
    await thread.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).fill(`Charlie ${tag}`);
    await thread.getByRole('button', { name: 'Post', exact: true }).click();
    const grandchild = postCard(page, `Charlie ${tag}`);
    await grandchild.waitFor();
    await grandchild.getByRole('link', { name: me.name }).first().waitFor();

    // like: optimistic, then kept after a reload; the button's name holds the count it shows
    await child.getByRole('button', { name: 'Like: 0 likes', exact: true }).click();
    await child.getByRole('button', { name: 'Unlike: 1 like', exact: true }).waitFor();
    expect(await child.getByTestId('like-count').innerText()).toBe('1');

    // share copies the permalink with the post id and says Copied! for 1.5 s
    await parent.getByRole('button', { name: 'Share' }).click();
    await parent.getByRole('button', { name: 'Copied!' }).waitFor();
    const parentId = Number(await parent.getAttribute('data-post-id'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${new URL(page.url()).origin}/lessons/1#${parentId}`,
    );
    await parent.getByRole('button', { name: 'Share' }).waitFor({ timeout: 3000 });

    // edit in place: the Edit link is intercepted, the editor is 300 px tall
    await child.getByRole('link', { name: 'Edit', exact: true }).click();
    const editor = child.getByLabel('Edit post');
    expect(Math.round(await editor.evaluate((el) => el.getBoundingClientRect().height))).toBe(300);
    expect(new URL(page.url()).pathname).toBe('/lessons/1');
    await editor.fill(`Bravo edited ${tag}`);
    await child.getByRole('button', { name: 'Save' }).click();
    const edited = postCard(page, `Bravo edited ${tag}`);
    await edited.getByRole('button', { name: 'edited' }).click();
    await page.getByRole('dialog', { name: 'Earlier versions' }).getByText(`Bravo ${tag}`).waitFor();
    await shot(page, 'lesson-revisions');
    await page.keyboard.press('Escape');

    // drafts survive a reload
    await box.fill(`Draft ${tag}`);
    await page.reload();
    await page.getByTestId('lesson-discussion').getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).first().waitFor();
    expect(
      await page
        .getByTestId('lesson-discussion')
        .getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder)
        .first()
        .inputValue(),
    ).toBe(`Draft ${tag}`);
    await page.getByTestId('lesson-discussion').getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).first().fill('');

    // individual thread (the 'to' focus mode) from a numeric hash, then the entire conversation
    await page.goto(`/lessons/1#${Number(await postCard(page, `Charlie ${tag}`).getAttribute('data-post-id'))}`);
    await page.getByText(COMMUNITY_MESSAGES.individualThread).waitFor();
    await postCard(page, `Charlie ${tag}`).waitFor();
    expect(await page.getByTestId('thread-parent').count()).toBe(1);
    await shot(page, 'lesson-focus');
    await page.getByRole('button', { name: COMMUNITY_MESSAGES.seeEntireConversation }).click();
    await page.getByLabel('Sort by').waitFor();
    expect(new URL(page.url()).hash).toBe('');

    // sort newest: our parent first
    await page.getByLabel('Sort by').selectOption('newest');
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid="thread-parent"]')?.textContent?.includes(`Parent ${t}`),
      tag,
    );

    // delete with confirmation, then the page reloads and the post shows as Deleted with its replies
    await postCard(page, `Charlie ${tag}`).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByText(COMMUNITY_MESSAGES.deletePostConfirm).waitFor();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click(),
    ]);
    await page.getByTestId('lesson-discussion').getByText(`Bravo edited ${tag}`).waitFor();
    expect(await page.getByText(`Charlie ${tag}`).count()).toBe(0);
    await shot(page, 'lesson-after-delete');
    expect(page.errors).toEqual([]);
  });

  it('an invalid attachment shows the first server message in red under the reply box; a real image is previewed and removable', async () => {
    const page = await newPage(browser, PHONE);
    await newDrummer(page);
    await page.goto('/lessons/1');
    const form = page.getByTestId('lesson-discussion').getByTestId('reply-form').first();
    await form.waitFor();
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'evil.png', mimeType: 'image/png', buffer: Buffer.from('<script>alert(1)</script>') });
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe(COMMUNITY_MESSAGES.attachmentInvalid);
    expect(await alert.getAttribute('class')).toContain('text-danger');
    await shot(page, 'attachment-error-phone');
    // a real 1x1 PNG
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    await form.locator('input[type=file]').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await form.getByAltText('Attachment preview').waitFor();
    expect(await form.getByRole('alert').count()).toBe(0);
    const tag = stamp();
    await form.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).fill(`With image ${tag}`);
    await form.getByRole('button', { name: 'Post', exact: true }).click();
    await postCard(page, `With image ${tag}`)
      .getByRole('img', { name: /Image attached by/ })
      .waitFor();
    expect(page.errors).toEqual([]);
  });
});

describe('forum thread (member and admin)', () => {
  it("replies on a forum topic thread through /posts/{id}, and an admin edits someone else's post in place", async () => {
    const page = await newPage(browser, DESKTOP);
    await newDrummer(page, { member: true });
    await page.goto('/dashboard');
    const tag = stamp();
    // a topic of the demo forum: reply to it through the API, then open the post's page
    const threadRes = await apiCall<{ posts: { id: number; user: string }[] }>(
      page,
      'GET',
      '/posts?id=1&type=forumtopic',
    );
    expect(threadRes.posts.length).toBeGreaterThan(0);
    const mine = await apiCall<{ post: { id: number } }>(page, 'POST', '/posts', {
      type: 'forumtopic',
      resource_id: 1,
      parent_id: null,
      body: `Forum parent ${tag}`,
    });
    await page.goto(`/posts/${mine.post.id}`);
    await page.getByText(COMMUNITY_MESSAGES.individualThread).waitFor();
    const thread = page.getByTestId('thread-parent').filter({ hasText: `Forum parent ${tag}` });
    await thread.getByRole('button', { name: 'Reply' }).first().click();
    await thread.getByPlaceholder(COMMUNITY_MESSAGES.replyPlaceholder).fill(`Forum child ${tag}`);
    await thread.getByRole('button', { name: 'Post', exact: true }).click();
    await postCard(page, `Forum child ${tag}`).waitFor();
    // See full discussion... leaves individual mode and shows the other parents
    await page.getByRole('button', { name: COMMUNITY_MESSAGES.seeFullDiscussion }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="thread-parent"]').length > 1);
    expect(await page.getByText(COMMUNITY_MESSAGES.individualThread).count()).toBe(0);

    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test', undefined, `/posts/${mine.post.id}`);
    const card = await pinned(admin, `Forum parent ${tag}`);
    // hover card with the member's real profile summary
    await card.getByTestId('post-author').hover();
    const hover = admin.getByTestId('hover-card');
    await hover.getByText(/Member since/).waitFor();
    expect(await hover.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(500);
    await admin.mouse.move(1, 1);
    await hover.waitFor({ state: 'detached' });
    await card.getByRole('link', { name: 'Edit', exact: true }).click();
    await card.getByLabel('Edit post').fill(`Moderated ${tag}`);
    await card.getByRole('button', { name: 'Save' }).click();
    await postCard(admin, `Moderated ${tag}`).waitFor();
    await shot(admin, 'post-page-admin');
    // the member sees it edited
    await page.goto(`/posts/${mine.post.id}`);
    await postCard(page, `Moderated ${tag}`).getByRole('button', { name: 'edited' }).waitFor();
    // admins' names are green
    const adminPost = await apiCall<{ post: { id: number } }>(admin, 'POST', '/posts', {
      type: 'forumtopic',
      resource_id: 1,
      parent_id: null,
      body: `Admin says ${tag}`,
    });
    await page.goto(`/posts/${adminPost.post.id}`);
    const name = postCard(page, `Admin says ${tag}`).getByTestId('post-author');
    expect(await name.evaluate((el) => el.className)).toContain('text-success');
    expect(page.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('the posts modal opens a same-site address in a frame from a page-wide event', async () => {
    const page = await newPage(browser, DESKTOP);
    await newDrummer(page, { member: true });
    await page.goto('/lessons/1');
    await page.getByTestId('lesson-discussion').waitFor();
    const mine = await apiCall<{ post: { id: number } }>(page, 'POST', '/posts', {
      type: 'lesson',
      resource_id: 1,
      parent_id: null,
      body: `Modal ${stamp()}`,
    });
    // another site's address is refused
    await page.evaluate(() =>
      window.dispatchEvent(new CustomEvent('open-posts-modal', { detail: { url: 'https://evil.example/' } })),
    );
    await painted(page);
    expect(await page.getByTestId('posts-modal-frame').count()).toBe(0);
    await page.evaluate(
      (id) => window.dispatchEvent(new CustomEvent('open-posts-modal', { detail: { url: `/posts/${id}?embed=1` } })),
      mine.post.id,
    );
    const frame = page.frameLocator('[data-testid="posts-modal-frame"]');
    await frame.getByTestId('post-embed').locator(`article[data-post-id="${mine.post.id}"]`).waitFor();
    await shot(page, 'posts-modal');
    await page.getByRole('dialog', { name: 'Discussion' }).getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('posts-modal-frame').waitFor({ state: 'detached' });
    expect(page.errors).toEqual([]);
  });
});

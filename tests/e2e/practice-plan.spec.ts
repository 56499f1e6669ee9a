import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EMPTY_WEEK_MESSAGE } from '#shared/mentorship';
import { DESKTOP, launchBrowser, newDrummer, newPage, PHONE, reviewShot, signIn } from '#test/e2e';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

/** the save indicator went through "Saving..." and now says "Saved" */
const saved = (page: Page) =>
  expect
    .poll(async () => (await page.getByTestId('plan-save-status').textContent())?.trim(), { timeout: 10_000 })
    .toBe('Saved');
const phase3 = (page: Page) => page.getByRole('tabpanel', { name: 'Phase 3' });
const day = (page: Page, name: string) => phase3(page).getByRole('region', { name });

describe('practice plan', () => {
  it('a mentor builds a plan while the student logs tempos; both survive reloads and each side sees the other live', async () => {
    const admin = await newPage(browser, DESKTOP);
    const student = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test');
    // a student of the test's own: the plan the mentor changes below is theirs
    await newDrummer(student, { student: true });

    // a mentor opening the student page goes to their students
    await admin.goto('/mentorship/practice-plan');
    await admin.waitForURL('**/mentorship/students');

    await student.goto('/mentorship/practice-plan');
    await student.getByRole('heading', { name: 'Practice plan', exact: true }).waitFor();
    const me = (await (
      await student.request.get('/mentorship/practice-plan', { headers: { accept: 'application/json' } })
    ).json()) as { student: { id: number; name: string } };
    // a new student's plan is empty until the mentor writes it: the waiting message and no phase tabs
    await student.getByText(EMPTY_WEEK_MESSAGE).waitFor();
    expect(await student.getByRole('tab').count()).toBe(0);
    await reviewShot(student, 'practice-plan/student-desktop.png');

    await admin.goto(`/mentorship/students/${me.student.id}/practice-plan`);
    await admin.getByRole('heading', { name: `${me.student.name}'s practice plan` }).waitFor();
    expect(await admin.getByRole('link', { name: `Back to ${me.student.name}` }).getAttribute('href')).toBe(
      `/mentorship/students/${me.student.id}`,
    );
    // admins see every phase
    await admin.getByRole('tab', { name: 'Phase 3' }).click();
    await phase3(admin).getByText('No weeks in Phase 3 yet.').waitFor();
    await phase3(admin).getByRole('button', { name: 'Add week' }).click();
    const monday = day(admin, 'Week 1, Monday');
    await monday.getByLabel('Exercise title').fill('E2E Singles');
    await monday.getByLabel('Link for E2E Singles').fill('https://example.com/e2e-singles');
    await monday.getByLabel('Notes for E2E Singles').fill('Relaxed wrists');
    // digit keys only, four at most
    await monday.getByLabel('Goal for E2E Singles').pressSequentially('1a3-0!');
    expect(await monday.getByLabel('Goal for E2E Singles').inputValue()).toBe('130');
    await saved(admin);

    // the student sees the new phase and exercise without reloading
    await student.getByRole('tab', { name: 'Phase 3' }).click();
    const sMonday = day(student, 'Week 1, Monday');
    await sMonday.getByRole('link', { name: 'E2E Singles' }).waitFor();
    await sMonday.getByText('130 bpm').waitFor();
    expect(await sMonday.getByLabel('Goal for E2E Singles').count()).toBe(0); // read-only for students
    const t1 = sMonday.getByLabel('Ending Tempo 1 for E2E Singles');
    await t1.pressSequentially('9x5');
    expect(await t1.inputValue()).toBe('95');
    await sMonday.getByLabel('Ending Tempo 2 for E2E Singles').pressSequentially('123456');
    expect(await sMonday.getByLabel('Ending Tempo 2 for E2E Singles').inputValue()).toBe('1234');
    await sMonday.getByLabel('Ending Tempo 2 for E2E Singles').fill('');
    await sMonday.getByLabel('Ending Tempo 2 for E2E Singles').pressSequentially('110');
    await sMonday.getByLabel('Time Played w/o Mistakes for E2E Singles').pressSequentially('7');
    expect(await sMonday.getByLabel('Time Played w/o Mistakes for E2E Singles').getAttribute('inputmode')).toBe(
      'numeric',
    );
    await saved(student);

    // the mentor sees the student's tempos live, and keeps building: a saved day and an exercise
    await expect.poll(() => monday.getByLabel('Ending Tempo 1 for E2E Singles').inputValue()).toBe('95');
    await phase3(admin).getByRole('button', { name: 'Insert saved day' }).click();
    const picker = admin.getByRole('dialog', { name: 'Insert a saved day' });
    await picker.getByRole('button', { name: 'Grooves day' }).click();
    await picker.waitFor({ state: 'detached' });
    const grooves = day(admin, 'Week 1, Grooves day');
    await grooves.getByLabel('Goal for Rock beat with 8th-note hats').waitFor();
    expect(await grooves.getByTestId('practice-exercise').count()).toBe(2);
    await monday.getByRole('button', { name: 'Add exercise' }).click();
    await monday.getByLabel('Exercise title').nth(1).fill('E2E Doubles');
    await monday.getByLabel('Goal for E2E Doubles').fill('100');
    await saved(admin);

    // the student sees both without reloading, and their own values stay
    await day(student, 'Week 1, Grooves day').getByText('Rock beat with 8th-note hats').waitFor();
    await sMonday.getByText('E2E Doubles').waitFor();
    expect(await t1.inputValue()).toBe('95');
    await reviewShot(student, 'practice-plan/student-live-desktop.png');

    // completing the day hides its exercises from the student, not from the mentor
    await sMonday.getByLabel('Monday complete').check();
    await sMonday.getByText('Completed').waitFor();
    expect(await sMonday.getByTestId('practice-exercise').count()).toBe(0);
    await saved(student);
    await expect.poll(() => monday.getByLabel('Monday complete').isChecked()).toBe(true);
    expect(await monday.getByTestId('practice-exercise').count()).toBe(2);
    expect(await monday.getByLabel('Ending Tempo 2 for E2E Singles').inputValue()).toBe('110');
    await reviewShot(admin, 'practice-plan/admin-desktop.png');

    // both sides' edits survive reloads
    await student.reload();
    await student.getByRole('tab', { name: 'Phase 3' }).click();
    await day(student, 'Week 1, Monday').getByText('Completed').waitFor();
    await day(student, 'Week 1, Grooves day').getByText('Rock beat with 8th-note hats').waitFor();
    await admin.reload();
    await admin.getByRole('tab', { name: 'Phase 3' }).click();
    const m2 = day(admin, 'Week 1, Monday');
    expect(await m2.getByLabel('Ending Tempo 1 for E2E Singles').inputValue()).toBe('95');
    expect(await m2.getByLabel('Ending Tempo 2 for E2E Singles').inputValue()).toBe('110');
    expect(await m2.getByLabel('Time Played w/o Mistakes for E2E Singles').inputValue()).toBe('7');
    expect(await m2.getByLabel('Goal for E2E Doubles').inputValue()).toBe('100');
    expect(await m2.getByLabel('Link for E2E Singles').inputValue()).toBe('https://example.com/e2e-singles');
    expect(await m2.getByLabel('Monday complete').isChecked()).toBe(true);

    // the student's tempo progress chart
    await student.getByRole('heading', { name: 'Tempo progress' }).waitFor();
    expect(await student.getByRole('img', { name: /E2E Singles: tempo progress/ }).count()).toBe(1);

    // phone: stacked cards at 390 px, nothing wider than the screen
    for (const [page, who] of [
      [student, 'student'],
      [admin, 'admin'],
    ] as const) {
      await page.setViewportSize(PHONE);
      await page.getByRole('tab', { name: 'Phase 3' }).click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await reviewShot(page, `practice-plan/${who}-phone.png`);
    }
    expect(admin.errors).toEqual([]);
    expect(student.errors).toEqual([]);
  });

  it('an empty week shows the waiting message to the student', async () => {
    const admin = await newPage(browser, DESKTOP);
    const student = await newPage(browser, PHONE);
    await signIn(admin, 'admin@demo.test');
    // a student of the test's own: the plan the mentor changes below is theirs
    await newDrummer(student, { student: true });
    await student.goto('/mentorship/practice-plan');
    const me = (await (
      await student.request.get('/mentorship/practice-plan', { headers: { accept: 'application/json' } })
    ).json()) as { student: { id: number } };
    await admin.goto(`/mentorship/students/${me.student.id}/practice-plan`);
    await admin.getByRole('tab', { name: 'Phase 3' }).click();
    // two weeks, each with a day and an exercise; the second one's exercise is removed: an empty week
    // beside a week with work in it
    await phase3(admin).getByRole('button', { name: 'Add week' }).click();
    await day(admin, 'Week 1, Monday').waitFor();
    await phase3(admin).getByRole('button', { name: 'Add week' }).click();
    const week2 = day(admin, 'Week 2, Monday');
    await week2.getByRole('button', { name: 'Remove exercise' }).click();
    await saved(admin);
    await student.getByRole('tab', { name: 'Phase 3' }).click();
    await phase3(student).getByText(EMPTY_WEEK_MESSAGE).waitFor();
    expect(student.errors).toEqual([]);
  });

  it('mentors manage saved days', async () => {
    const admin = await newPage(browser, DESKTOP);
    await signIn(admin, 'admin@demo.test');
    await admin.goto('/mentorship/practice-plan-days');
    await admin.getByRole('heading', { name: 'Saved days', exact: true }).first().waitFor();
    await admin.getByRole('button', { name: 'Hands: rudiments day' }).waitFor();
    await admin.getByRole('button', { name: 'New', exact: true }).click();
    await admin.getByLabel('Day title').fill('E2E saved day');
    await admin.getByLabel('Exercise title').fill('Flams');
    await admin.getByLabel('Goal for exercise 1').pressSequentially('8a0');
    await admin.getByLabel('Link').fill('javascript:alert(1)');
    await admin.getByRole('button', { name: 'Create saved day' }).click();
    await admin.getByText('Links must start with http:// or https://').first().waitFor();
    await admin.getByLabel('Link').fill('https://example.com/flams');
    await admin.getByRole('button', { name: 'Create saved day' }).click();
    await admin.getByRole('button', { name: 'E2E saved day' }).waitFor();
    await admin.getByRole('heading', { name: 'Edit saved day' }).waitFor();
    expect(await admin.getByLabel('Goal for exercise 1').inputValue()).toBe('80');
    await reviewShot(admin, 'practice-plan/saved-days-desktop.png');
    await admin.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => admin.getByRole('button', { name: 'E2E saved day' }).count()).toBe(0);
    expect(admin.errors).toEqual([]);
  });
});

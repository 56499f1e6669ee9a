import { expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM_MESSAGE } from './find-chromium.ts';

it('prefers CHROMIUM_PATH, then a system browser', async () => {
  expect((await findChromium({ CHROMIUM_PATH: process.execPath })).path).toBe(process.execPath);
  expect((await findChromium({}, { systemPaths: ['/nonexistent', process.execPath] })).source).toBe('system');
});

it('for the browser suite, a headless shell comes before the full browser; the bench keeps the browser', async () => {
  const shell = process.execPath;
  const browser = '/bin/sh';
  const paths = { headlessShellPaths: ['/nonexistent', shell], systemPaths: [browser] };
  expect(await findChromium({}, { headlessShell: true, ...paths })).toMatchObject({ path: shell, source: 'system' });
  expect((await findChromium({}, paths)).path).toBe(browser);
  expect(
    (await findChromium({}, { headlessShell: true, headlessShellPaths: ['/nonexistent'], systemPaths: [browser] }))
      .path,
  ).toBe(browser);
  expect((await findChromium({ CHROMIUM_PATH: browser }, { headlessShell: true, ...paths })).path).toBe(browser);
});

it('a CHROMIUM_PATH that does not exist is an error, not a silent fallback', async () => {
  await expect(findChromium({ CHROMIUM_PATH: '/nope/chromium' })).rejects.toThrow(
    'CHROMIUM_PATH is set to /nope/chromium',
  );
});

it('with no browser anywhere, fails with one line that says how to get one', async () => {
  const err = await findChromium({}, { systemPaths: [], sparticuz: false }).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toBe(NO_CHROMIUM_MESSAGE);
  expect(NO_CHROMIUM_MESSAGE).not.toContain('\n');
  expect(NO_CHROMIUM_MESSAGE).toContain('apt-get install -y chromium');
});

import type { AppConfig } from '#server/config';
import { createTestApp, type TestApp } from './api-harness.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp.ts';

/**
 * An app whose mail goes to a real SMTP server started for the test, read back from there. Every mail
 * is a background job, so this app works its jobs (polling often, so that a mail arrives soon after it
 * is queued). `close` stops both.
 */
export async function startMailApp(
  overrides: Partial<AppConfig> = {},
): Promise<{ t: TestApp; smtp: TestSmtpServer; close(): Promise<void> }> {
  const smtp = await startSmtpServer();
  const t = await createTestApp({ smtpUrl: smtp.url, jobsPollSeconds: 0.2, ...overrides });
  await t.app.deps.jobs.start();
  return {
    t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

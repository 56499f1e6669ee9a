import { expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, productionWarnings } from './config.ts';

it('the embedded default loads demo content and offers the dev tools', () => {
  const c = loadConfig({}, []);
  expect(c).toMatchObject({ port: 3000, databaseUrl: null, demo: true, devTools: true, viteDev: false });
  expect(c.dataDir.endsWith('/data')).toBe(true);
  expect(loadConfig({ NODE_ENV: 'production', PORT: '8080', DATA_DIR: '/tmp/x' }, []).demo).toBe(true);
});

it('DEMO=1 loads demo content on PostgreSQL outside production; DEMO=0 never', () => {
  expect(loadConfig({ DATABASE_URL: 'postgres://x/y', DEMO: '1' }, []).demo).toBe(true);
  expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }, []).demo).toBe(false);
  expect(loadConfig({ DEMO: '0' }, []).demo).toBe(false);
});

it('never loads demo content, nor the mail outbox page, on a production configuration', () => {
  const c = loadConfig(
    { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', DEMO: '1', SESSION_SECRET: 's'.repeat(32) },
    [],
  );
  expect(c.demo).toBe(false);
  expect(c.devTools).toBe(false);
});

it('a production configuration needs SESSION_SECRET', () => {
  expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' }, [])).toThrow('SESSION_SECRET');
});

it('npm run dev passes --dev for Vite middleware mode', () => {
  expect(loadConfig({}, ['node', 'main.ts', '--dev']).viteDev).toBe(true);
});

it('HTTPS needs both TLS files, says which one it cannot read, and makes the default address https', () => {
  expect(loadConfig({}, []).tls).toBeNull();
  expect(() => loadConfig({ TLS_CERT_FILE: '/tmp/cert.pem' }, [])).toThrow(
    'HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE (PEM files).',
  );
  expect(() =>
    loadConfig({ TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/nonexistent/key.pem' }, []),
  ).toThrow('TLS_CERT_FILE: cannot read /nonexistent/cert.pem (ENOENT).');
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-config-tls-'));
  writeFileSync(path.join(dir, 'cert.pem'), 'CERT');
  writeFileSync(path.join(dir, 'key.pem'), 'KEY');
  const c = loadConfig(
    { PORT: '8443', TLS_CERT_FILE: path.join(dir, 'cert.pem'), TLS_KEY_FILE: path.join(dir, 'key.pem') },
    [],
  );
  expect(c.tls?.cert.toString()).toBe('CERT');
  expect(c.tls?.key.toString()).toBe('KEY');
  expect(c.appUrl).toBe('https://localhost:8443');
  rmSync(dir, { recursive: true });
});

it('offers no development tool with NODE_ENV=production, on the embedded database too', () => {
  expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/x' }, []).devTools).toBe(false);
  expect(
    loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', SESSION_SECRET: 's'.repeat(32) }, []).devTools,
  ).toBe(false);
  // `npm run dev` keeps the open outbox for local work
  expect(loadConfig({}, ['--dev']).devTools).toBe(true);
});

it('tells a production operator what is not set up: mail, demo accounts, test-mode payments, the sandbox tools', () => {
  const npmStart = productionWarnings(loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/x' }, []));
  expect(npmStart.join('\n')).toMatch(/SMTP_URL is not set[\s\S]*Demo content is loaded/);
  const mailAndNoDemo = loadConfig(
    { NODE_ENV: 'production', DATA_DIR: '/tmp/x', DEMO: '0', SMTP_URL: 'smtp://mail.test' },
    [],
  );
  // payments on the sandbox: the operator hears that no real money is taken
  expect(productionWarnings(mailAndNoDemo)).toEqual([
    expect.stringMatching(/^Payments are in test mode: card and PayPal payments go to the sandbox/),
  ]);
  const configured = {
    ...mailAndNoDemo,
    payments: { ...mailAndNoDemo.payments, card: 'stripe' as const, paypal: 'paypal' as const },
  };
  expect(productionWarnings(configured)).toEqual([]);
  expect(
    productionWarnings({ ...configured, payments: { ...configured.payments, paypal: 'sandbox' as const } }),
  ).toEqual([expect.stringContaining('test mode: PayPal payments go to the sandbox')]);
  expect(
    productionWarnings({ ...configured, payments: { ...configured.payments, sandboxAllowInProduction: true } }),
  ).toEqual([expect.stringContaining('SANDBOX_ALLOW_IN_PRODUCTION')]);
  expect(productionWarnings(loadConfig({}, []))).toEqual([]);
});

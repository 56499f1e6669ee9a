import { expect, it } from 'vitest';
import { loadConfig } from './config.ts';

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
  const c = loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', DEMO: '1', SESSION_SECRET: 's'.repeat(32) }, []);
  expect(c.demo).toBe(false);
  expect(c.devTools).toBe(false);
});

it('a production configuration needs SESSION_SECRET', () => {
  expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' }, [])).toThrow('SESSION_SECRET');
});

it('npm run dev passes --dev for Vite middleware mode', () => {
  expect(loadConfig({}, ['node', 'main.ts', '--dev']).viteDev).toBe(true);
});

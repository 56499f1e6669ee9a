import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { initialJs } from '../../scripts/initial-js.ts';

// scripts/initial-js.ts on a small made-up build: the entry's and the route's static imports count,
// each file once; dynamic imports and other routes do not. (The real build is checked in tests/e2e/initial-js.spec.ts.)
const dir = mkdtempSync(path.join(tmpdir(), 'initial-js-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sums the entry, the route chunk and their static imports, gzip, once each', () => {
  mkdirSync(path.join(dir, '.vite'));
  mkdirSync(path.join(dir, 'assets'));
  const files: Record<string, string> = {
    'assets/index.js': 'a'.repeat(5000),
    'assets/react.js': 'r'.repeat(3000),
    'assets/home.js': 'h'.repeat(1000),
    'assets/icon.js': 'i'.repeat(100),
    'assets/metronome.js': 'm'.repeat(9000),
    'assets/modal.js': 'x'.repeat(7000),
  };
  for (const [f, body] of Object.entries(files)) writeFileSync(path.join(dir, f), body);
  const manifest = {
    'index.html': {
      file: 'assets/index.js',
      isEntry: true,
      imports: ['_react.js'],
      dynamicImports: ['app/pages/home.tsx', 'app/pages/metronome.tsx', '_modal.js'],
    },
    '_react.js': { file: 'assets/react.js' },
    '_modal.js': { file: 'assets/modal.js', isDynamicEntry: true },
    '_icon.js': { file: 'assets/icon.js', imports: ['_react.js'] },
    'app/pages/home.tsx': {
      file: 'assets/home.js',
      isDynamicEntry: true,
      imports: ['_react.js', '_icon.js', 'index.html'],
    },
    'app/pages/metronome.tsx': { file: 'assets/metronome.js', isDynamicEntry: true, imports: ['_react.js'] },
  };
  writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  const [home, metronome] = initialJs(
    dir,
    [
      { page: '/', route: 'app/pages/home.tsx' },
      { page: '/metronome', route: 'app/pages/metronome.tsx' },
    ],
    60,
  );
  expect(home!.files).toEqual(['assets/index.js', 'assets/react.js', 'assets/home.js', 'assets/icon.js']);
  expect(home!.routeFile).toBe('assets/home.js');
  expect(home!.raw).toBe(5000 + 3000 + 1000 + 100);
  expect(home!.gzip).toBeGreaterThan(0);
  expect(home!.gzip).toBeLessThan(home!.raw);
  expect(metronome!.files).toEqual(['assets/index.js', 'assets/react.js', 'assets/metronome.js']);
  // budget 60 bytes: four gzip streams of at least ~20 bytes each are over it
  expect(home!.ok).toBe(false);
  expect(() => initialJs(dir, [{ page: '/x', route: 'app/pages/x.tsx' }])).toThrow(/not a lazily loaded route chunk/);
});

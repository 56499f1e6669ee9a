import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// The project brings its own Node.js (the `node` dev dependency, first on PATH in npm scripts), so the
// tests run on the version .nvmrc and package.json's engines name, whatever node the machine has.
it('runs on the Node.js major version the project declares', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const major = Number(readFileSync(path.join(root, '.nvmrc'), 'utf8').trim());
  const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } })
    .engines.node;
  console.info(`Node.js ${process.version} (${process.execPath})`);
  expect(engines).toBe(`>=${major}`);
  expect(Number(process.versions.node.split('.')[0])).toBe(major);
});

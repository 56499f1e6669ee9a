import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import path from 'node:path';

/** The layout's import boundaries are enforced by ESLint (eslint.config.js). */
const eslint = new ESLint();
async function restricted(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('src/shared imports neither side nor Node built-ins', async () => {
    const messages = await restricted(
      'src/shared/x.ts',
      "import a from '#server/app';\nimport b from '#client/lib/api.ts';\nimport c from 'node:fs';\nexport default [a, b, c];\n",
    );
    expect(messages).toHaveLength(3);
  });
  it('the client never imports the server', async () => {
    expect(
      await restricted(
        'src/client/lib/x.ts',
        "import a from '#server/app';\nimport b from '../../server/app.ts';\nexport default [a, b];\n",
      ),
    ).toHaveLength(2);
  });
  it('a feature never imports another feature, but may import itself and shared code', async () => {
    expect(
      await restricted(
        'src/client/features/auth/x.ts',
        "import a from '#client/features/notifications/api/notifications.ts';\nexport default a;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'src/client/features/auth/x.ts',
        "import a from '#client/features/auth/api/auth.ts';\nimport b from '#shared/constants';\nimport c from '#client/lib/api.ts';\nexport default [a, b, c];\n",
      ),
    ).toHaveLength(0);
  });
  it("a server module uses another module through its front door, never the module's other files", async () => {
    expect(
      await restricted(
        'src/server/modules/contact/routes.ts',
        "import { a } from '#server/modules/diagnostic/routes';\nimport { b } from '../admin/audit.ts';\nexport default [a, b];\n",
      ),
    ).toHaveLength(2);
    expect(
      await restricted(
        'src/server/modules/contact/routes.ts',
        "import { a } from '#server/modules/diagnostic/index';\nimport { b } from './service.ts';\nimport { c } from '#server/modules/contact/service';\nimport { d } from '#server/lib/csv';\nexport default [a, b, c, d];\n",
      ),
    ).toHaveLength(0);
  });
  it('the app, plugins and lib use modules through their front doors; tests may reach inside', async () => {
    expect(
      await restricted(
        'src/server/deps.ts',
        "import { a } from './modules/users/service.ts';\nimport { b } from './modules/users/index.ts';\nexport default [a, b];\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'src/server/plugins/x.ts',
        "import { a } from '../modules/realtime/service.ts';\nexport default a;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'src/server/modules/billing/x.test.ts',
        "import { a } from '#server/modules/payments/sandbox';\nexport default a;\n",
      ),
    ).toHaveLength(0);
  });
  it('every server module has a front door', () => {
    const dir = path.resolve(import.meta.dirname, '../../src/server/modules');
    const missing = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !existsSync(path.join(dir, d.name, 'index.ts')))
      .map((d) => d.name);
    expect(missing).toEqual([]);
  });
  it('pages compose features', async () => {
    expect(
      await restricted(
        'src/client/app/pages/x.tsx',
        "import a from '#client/features/auth/api/auth.ts';\nimport b from '#client/features/notifications/api/notifications.ts';\nexport default [a, b];\n",
      ),
    ).toHaveLength(0);
  });
});

/** the server's and shared code's imports (type imports too), file to file */
function importGraph(): Map<string, string[]> {
  const root = path.resolve(import.meta.dirname, '../..');
  const files = ['src/server', 'src/shared'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => path.join(root, dir, f)),
  );
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    const abs = spec.startsWith('#server/')
      ? path.join(root, 'src/server', spec.slice(8))
      : spec.startsWith('#shared/')
        ? path.join(root, 'src/shared', spec.slice(8))
        : spec.startsWith('.')
          ? path.resolve(path.dirname(from), spec)
          : null;
    return abs && (abs.endsWith('.ts') ? abs : `${abs}.ts`);
  };
  return new Map(
    files.map((f) => [
      path.relative(root, f),
      ts
        .preProcessFile(readFileSync(f, 'utf8'), true, true)
        .importedFiles.map((i) => resolve(f, i.fileName))
        .filter((abs): abs is string => !!abs && known.has(abs))
        .map((abs) => path.relative(root, abs)),
    ]),
  );
}

it('no import circles in the server and shared code (type imports count)', () => {
  const graph = importGraph();
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  expect(graph.size).toBeGreaterThan(100);
  expect(circles).toEqual([]);
});

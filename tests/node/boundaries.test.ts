import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

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
  it('pages compose features', async () => {
    expect(
      await restricted(
        'src/client/app/pages/x.tsx',
        "import a from '#client/features/auth/api/auth.ts';\nimport b from '#client/features/notifications/api/notifications.ts';\nexport default [a, b];\n",
      ),
    ).toHaveLength(0);
  });
});

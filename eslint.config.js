// ESLint: TypeScript rules plus the import boundaries of the layout (docs/decisions/0001-foundation.md):
//  - src/shared imports neither side (nor Node built-ins: it runs in the browser too);
//  - the client never imports the server;
//  - a client feature never imports another feature (pages in src/client/app compose them);
//  - the server's own code never imports test support (tests/support, `#test/*`): only its *.test.ts files do.
//  - a server module (src/server/modules/<domain>/) is used through its front door, index.ts: no
//    file outside the module imports its other files (test files and test support may).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { readdirSync, existsSync } from 'node:fs';

const featuresDir = 'src/client/features';
const serverModulesDir = 'src/server/modules';
const serverModules = existsSync(serverModulesDir)
  ? readdirSync(serverModulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
// test files reach into a module to set up its state (test support lives in tests/, outside these rules)
const serverTestFiles = ['**/*.test.ts'];
/** another module's files other than its index.ts, by #server path or a relative one (`mod`: this module, if any) */
const moduleInternals = (mod) => ({
  regex: `^(#server/modules/|(\\.\\./)*(\\./)?(modules/)?)${mod ? `(?!${mod}/)` : ''}(${serverModules.join('|')})/(?!index(\\.ts)?$)`,
  message: "Use the module's front door (#server/modules/<domain>/index): its other files are its own.",
});
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

// zod is used through src/shared/zod.ts, which words its refusals for people (docs/product/bad-input.md)
const zodImport = {
  name: 'zod',
  message: "Import { z } from '#shared/zod' (or './zod.ts' in src/shared): it words validation errors as sentences.",
};

// regex patterns: in the gitignore-style `group` syntax a leading "#" would be a comment
const serverImports = {
  regex: '^(#server/|(\\.\\./)+server/|.*/src/server/)',
  message: 'The client and shared code never import the server.',
};

const testSupportImports = {
  regex: '^(#test/|(\\.\\./)+tests/)',
  message: 'Test support (tests/support, #test/*) is for *.test.ts files only: production code never imports it.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'drizzle/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    // a reason kept on a file that has since shrunk is stale: say so
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // a file over 400 lines says at its top why it is one file: `/* eslint-disable max-lines -- <why> */`
      'max-lines': ['error', { max: 400 }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['src/shared/zod.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [zodImport] }] },
  },
  {
    files: ['src/server/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [zodImport], patterns: [testSupportImports] }] },
  },
  {
    files: ['src/shared/**'],
    ignores: ['src/shared/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [zodImport],
          patterns: [
            serverImports,
            { regex: '^(#client/|(\\.\\./)+client/)', message: 'src/shared imports neither side.' },
            { group: ['node:*'], message: 'src/shared is isomorphic: no Node built-ins.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**'],
    ignores: ['src/client/features/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [zodImport], patterns: [serverImports] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/modules/*/**', ...serverTestFiles],
    rules: {
      'no-restricted-imports': ['error', { paths: [zodImport], patterns: [moduleInternals(null), testSupportImports] }],
    },
  },
  ...serverModules.map((mod) => ({
    files: [`${serverModulesDir}/${mod}/**/*.ts`],
    ignores: serverTestFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: [zodImport], patterns: [moduleInternals(mod), testSupportImports] }],
    },
  })),
  ...features.map((feature) => ({
    files: [`${featuresDir}/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [zodImport],
          patterns: [
            serverImports,
            {
              regex: `^#client/features/(?!${feature}/)`,
              message: 'Features do not import each other; compose them in a page (src/client/app).',
            },
            { group: ['../../*', '../../../*'], message: 'Use #client/... to leave a feature folder.' },
          ],
        },
      ],
    },
  })),
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'renderer/dist/',
      'dist/',
      'data/',
      'public/*.js',
      'public/app/',
      '.tmp/',
      'sdks/typescript/dist/',
      'sdks/typescript/src/generated/',
      'companion/pkg/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'renderer/*.mjs', 'dashboard/*.mjs', 'protocol/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A dropped rejection in a long-lived socket server is a production bug.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Async methods that implement a Promise-returning interface (Store, Broker) need no await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['renderer/src/**'],
    rules: { 'no-console': ['error', { allow: ['warn'] }] },
  },
  {
    files: [
      'test/**',
      'bench/**',
      'examples/**',
      'sdks/*.ts',
      '**/*.test.ts',
      'renderer/build.mjs',
      'dashboard/build.mjs',
      'protocol/build.mjs',
    ],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Tests must pass on a busy 2-core machine (README, "Testing"). expect.poll's default is set in vitest.config.ts;
    // vi.waitFor's cannot be, so each call says how long it may wait.
    files: ['test/**/*.ts', '**/*.test.ts', '**/*.contract.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name='waitFor'][arguments.length<2]",
          message: 'vi.waitFor gives up after 1 s by default: pass { timeout } (10–20 s for anything across a server).',
        },
      ],
    },
  },
);

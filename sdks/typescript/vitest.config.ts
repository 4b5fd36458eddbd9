/**
 * Runs this SDK's suite on its own: `npx vitest run --config sdks/typescript/vitest.config.ts` from the repository
 * root. The root config runs it too once its `include` lists `sdks/typescript/test/**\/*.test.ts`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'protocol/src/**/*.test.ts',
      'renderer/src/**/*.test.ts',
      'test/**/*.test.ts',
      'sdks/typescript/test/**/*.test.ts',
    ],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Browser and kill -9 tests start whole servers; two cores do not like many at once.
    maxWorkers: 2,
  },
});

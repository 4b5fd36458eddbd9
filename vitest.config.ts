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
    // expect.poll's own default (1 s) is sized for an idle laptop: most polls here wait on a server, a browser or a
    // webhook, which on a busy 2-core machine take seconds. Polls on something slower (a 2 s feed, a retry at +3 s)
    // say so with their own timeout. vi.waitFor has no such setting: each call passes its timeout (lint checks).
    expect: { poll: { timeout: 15_000 } },
    // Browser and kill -9 tests start whole servers; two cores do not like many at once.
    maxWorkers: 2,
  },
});

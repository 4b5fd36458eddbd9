/**
 * The crash suite (`npx vitest run --config test/chaos/vitest.config.ts`): kill -9 a real server many times under
 * load and check what it acknowledged and delivered. Its files end in `.chaos.ts` so that the root config
 * (`test/**\/*.test.ts`) never runs them with `npm test`.
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '..', '..'),
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    pool: 'forks',
    // One server at a time: the run is about timing, and a second one would only add noise.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});

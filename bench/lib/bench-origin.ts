/** Who the benchmarks' in-process ops come from: an API key, as a client's patch would. */
import type { Origin } from '../../src/engine/index.js';

export const BENCH_BY: Origin = { source: 'api', actor: { type: 'key', id: 'key_bench', name: 'bench' } };

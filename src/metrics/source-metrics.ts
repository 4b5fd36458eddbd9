/** Data sources: fetches by how they ended (docs/data-sources.md, "Polling"). */
import { Counter, type Registry } from 'prom-client';
import type { FetchOutcome, SourceRecorder } from '../sources/data-sources.js';

const OUTCOMES: readonly FetchOutcome[] = ['changed', 'unchanged', 'not_modified', 'failed'];

export function sourceMetrics(registry: Registry): SourceRecorder {
  const fetches = new Counter({
    name: 'onair_source_fetches_total',
    help: 'Data source fetches by outcome: values applied (changed), a body that applied nothing (unchanged), a 304 (not_modified), an error (failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of OUTCOMES) fetches.inc({ outcome }, 0);
  return { fetched: (outcome) => fetches.inc({ outcome }) };
}

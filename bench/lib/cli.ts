/** The command line every benchmark shares: `--short` for the run-all version, `--profile` to profile onair. */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { renderTable, type Table } from './table.js';

export interface BenchOptions {
  short: boolean;
  /** Record a CPU profile of onair's measured window into bench/results/prof/. */
  profile: boolean;
}

export function benchOptions(argv = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: { short: { type: 'boolean', default: false }, profile: { type: 'boolean', default: false } },
  });
  return { short: values.short ?? false, profile: values.profile ?? false };
}

export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === moduleUrl;
}

/** Runs a benchmark as its own command: prints its tables, exits non-zero only if it crashed. */
export function runAsCommand(run: (o: BenchOptions) => Promise<Table[]>): void {
  run(benchOptions()).then(
    (tables) => {
      for (const t of tables) console.log(renderTable(t));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/**
 * `npm run bench`: the short version of every benchmark, one at a time, printing every table and
 * writing them to bench/results/latest.md.
 *
 *   npm run bench            (short, ≤ 5 minutes)
 *   npx tsx bench/run-all.ts --full
 *   npm run bench -- --only cluster --only fanout    (some of them)
 *
 * The several-node benchmark (cluster.ts) runs when Postgres and Redis are there (ONAIR_TEST_DATABASE_URL and
 * ONAIR_TEST_REDIS_URL, as the several-node tests use them: eval "$(bash test/services/start.sh)"); otherwise it is
 * skipped, with the reason printed and written to the results.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runEvents } from './events.js';
import { runFanout } from './fanout.js';
import { runLatency } from './latency.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../test/helpers/services.js';
import { runCluster } from './cluster.js';
import { runCompanion } from './companion.js';
import { ROOT } from './lib/child.js';
import type { BenchOptions } from './lib/cli.js';
import { cpuBusy, machineLine, stealMeter } from './lib/machine.js';
import { renderTable, type Table } from './lib/table.js';
import { runMemory } from './memory.js';
import { runRenderer } from './renderer.js';
import { runRest } from './rest.js';
import { runSignInFlood } from './sign-in-flood.js';
import { runOutputs } from './outputs.js';
import { runSources } from './sources.js';
import { runTicker } from './ticker.js';
import { runWebhooks } from './webhooks.js';
import { runWebhooksFairness } from './webhooks-fairness.js';

const COMPANION_MISSING = fs.existsSync(path.join(ROOT, 'companion/pkg/onair/main.js'))
  ? null
  : 'needs the built module: npm run build:companion';

const SERVICES_MISSING =
  TEST_DATABASE_URL && TEST_REDIS_URL
    ? null
    : 'needs Postgres and Redis: set ONAIR_TEST_DATABASE_URL and ONAIR_TEST_REDIS_URL (eval "$(bash test/services/start.sh)")';

/** Name, run, and why it cannot run here (null: it can). */
const BENCHES: [string, (o: BenchOptions) => Promise<Table[]>, string | null][] = [
  ['fanout', runFanout, null],
  ['latency', runLatency, null],
  ['rest', runRest, null],
  ['memory', runMemory, null],
  ['renderer', runRenderer, null],
  ['ticker', runTicker, null],
  ['outputs', runOutputs, null],
  ['events', runEvents, null],
  ['webhooks', runWebhooks, null],
  ['webhooks-fairness', runWebhooksFairness, null],
  ['sign-in-flood', runSignInFlood, null],
  ['sources', runSources, null],
  ['companion', runCompanion, COMPANION_MISSING],
  ['cluster', runCluster, SERVICES_MISSING],
];

function summaryTable(tables: Table[]): string {
  const targets = tables.flatMap((t) => t.rows.filter((r) => r.met !== null).map((r) => ({ t: t.title, r })));
  const met = targets.filter((x) => x.r.met).length;
  const lines = [`**${met} of ${targets.length} target checks met.**`, ''];
  for (const { t, r } of targets)
    lines.push(
      `- ${r.met ? '✅' : '❌'} ${t}: ${r.metric} — onair ${r.onair} vs ${r.baseline} (${r.ratio}; target ${r.target})`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { full: { type: 'boolean', default: false }, only: { type: 'string', multiple: true } },
  });
  const options: BenchOptions = { short: !values.full, profile: false };
  const chosen = values.only ?? BENCHES.map(([name]) => name);
  const started = Date.now();
  const busy = await cpuBusy(1000);
  const steal = stealMeter();
  const tables: Table[] = [];
  for (const [name, run, missing] of BENCHES) {
    if (!chosen.includes(name)) continue;
    if (missing) {
      console.error(`${name}: skipped (${missing})`);
      tables.push({ title: `${name} (skipped)`, command: `npx tsx bench/${name}.ts`, rows: [], notes: [missing] });
      continue;
    }
    const t0 = Date.now();
    try {
      const result = await run(options);
      for (const t of result) console.log(renderTable(t));
      tables.push(...result);
    } catch (err) {
      console.error(`${name} failed:`, err);
      tables.push({ title: `${name} (failed)`, command: `npx tsx bench/${name}.ts`, rows: [], notes: [String(err)] });
    }
    console.error(`${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const header = [
    `# onair benchmarks`,
    '',
    `${new Date().toISOString()} — \`${values.full ? 'npx tsx bench/run-all.ts --full' : 'npm run bench'}\` — ${machineLine()} — ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s; machine ${(busy * 100).toFixed(0)} % busy before the run; ` +
      `CPU taken by the hypervisor for other guests during the run (steal): ${(steal() * 100).toFixed(1)} %.`,
    '',
    summaryTable(tables),
    '',
  ].join('\n');
  const out = path.join(ROOT, 'bench', 'results', 'latest.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${header}\n${tables.map(renderTable).join('\n')}`);
  console.log(summaryTable(tables));
  console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

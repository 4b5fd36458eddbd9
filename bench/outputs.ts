/**
 * What output pages' reports cost the server (docs/outputs.md, docs/performance.md "Output reports"): 1,000 output
 * pages (100 channels × 10) report what they painted at the output page's own cadence, against the same server,
 * pages and show without reports. The two servers run side by side through the same rounds, each with its own
 * client process (bench/clients/output-pages.ts), so whatever else the machine does falls on both alike; the bar is
 * at most 5 % more server CPU with the reports.
 *
 * The show: every channel has the scoreboard on program and gets a new value `PATCHES` times a second over a control
 * socket, so each page draws a new frame that often; what it shows (its layers) does not change, so it reports once
 * every 5 s with the frame it drew last, as the output page does. `--profile` records the reporting server's second
 * round into bench/results/prof/outputs-reports.cpuprofile.
 *
 *   npx tsx bench/outputs.ts [--short] [--profile]
 */
import { startChild, sleep, type Child } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { settle } from './lib/machine.js';
import { startOnair, type Onair } from './lib/onair.js';
import { cpuShare } from './lib/stats.js';
import { fmt, infoRow, ratioRow, type Table } from './lib/table.js';
import type { OnairStats } from './lib/onair.js';

const CHANNELS = 100;
const PER_CHANNEL = 10;
const PATCHES = 4;
const BAR = 0.05;

interface Subject {
  name: 'reports' | 'quiet';
  server: Onair;
  pages: Child;
}

interface Sample {
  cpu: NodeJS.CpuUsage;
  at: number;
  reports: number;
  frames: number;
}

interface Round {
  /** Server CPU as a share of one core. */
  cpu: number;
  reportsPerSec: number;
  framesPerSec: number;
}

async function open(name: Subject['name']): Promise<Subject> {
  const server = await startOnair({ channels: CHANNELS, dbSync: 'normal', lift: ['updates'] });
  for (const c of server.channels) {
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/channels/${c.id}/program`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sceneId: c.sceneId }),
    });
    if (!res.ok) throw new Error(`program: ${res.status} ${await res.text()}`);
  }
  const pages = await startChild('bench/clients/output-pages.ts', {
    config: {
      target: { kind: 'onair', port: server.port, key: server.key },
      channels: server.channels,
      perChannel: PER_CHANNEL,
      report: name === 'reports',
      patchesPerSecond: PATCHES,
    },
  });
  return { name, server, pages };
}

async function sample(x: Subject): Promise<Sample> {
  const [stats, counts] = await Promise.all([
    x.server.child.request<OnairStats>('stats'),
    x.pages.request<{ reports: number; frames: number }>('count'),
  ]);
  return { cpu: stats.cpu, at: stats.at, reports: counts.reports, frames: counts.frames };
}

function roundOf(a: Sample, b: Sample): Round {
  const seconds = (b.at - a.at) / 1000;
  return {
    cpu: cpuShare(a.cpu, b.cpu, b.at - a.at),
    reportsPerSec: (b.reports - a.reports) / seconds,
    framesPerSec: (b.frames - a.frames) / seconds,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runOutputs(o: BenchOptions): Promise<Table[]> {
  const rounds = o.short ? 5 : 9;
  const seconds = o.short ? 4 : 8;
  const busy = await settle(o.short);
  const subjects: Subject[] = [];
  const results: Record<Subject['name'], Round[]> = { reports: [], quiet: [] };
  try {
    for (const name of ['reports', 'quiet'] as const) subjects.push(await open(name));
    await sleep(3_000); // every page has painted and reported; the servers' code is warm
    for (let i = 0; i < rounds; i++) {
      const profiled = o.profile && i === 1;
      if (profiled) await subjects[0]!.server.child.request('profileStart');
      const before = await Promise.all(subjects.map(sample));
      await sleep(seconds * 1000);
      const after = await Promise.all(subjects.map(sample));
      const file = 'bench/results/prof/outputs-reports.cpuprofile';
      if (profiled) await subjects[0]!.server.child.request('profileStop', { file });
      subjects.forEach((x, j) => results[x.name].push(roundOf(before[j]!, after[j]!)));
      const [r, q] = [results.reports.at(-1)!, results.quiet.at(-1)!];
      console.error(`outputs round ${i + 1}: reports ${fmt.pct(r.cpu)} CPU, quiet ${fmt.pct(q.cpu)} CPU`);
    }
  } finally {
    for (const x of subjects) {
      await x.pages.stop();
      await x.server.stop();
    }
  }
  const cpu = (n: Subject['name']) => median(results[n].map((r) => r.cpu));
  const reportsPerSec = median(results.reports.map((r) => r.reportsPerSec));
  const perReportUs = ((cpu('reports') - cpu('quiet')) * 1e6) / reportsPerSec;
  const spread = (n: Subject['name']) =>
    `${fmt.pct(Math.min(...results[n].map((r) => r.cpu)))}–${fmt.pct(Math.max(...results[n].map((r) => r.cpu)))}`;
  return [
    {
      title: 'Output reports: server CPU with 1,000 reporting output pages',
      command: `npx tsx bench/outputs.ts${o.short ? ' --short' : ''}`,
      rows: [
        ratioRow('server CPU (share of one core)', 'no reports', cpu('quiet'), cpu('reports'), fmt.pct, {
          max: 1 + BAR,
        }),
        infoRow('reports taken per second', '0', fmt.rate(reportsPerSec)),
        infoRow('server CPU per report (the difference over the reports)', '—', fmt.us(perReportUs)),
        infoRow(
          'frame messages read by the pages per second',
          fmt.rate(median(results.quiet.map((r) => r.framesPerSec))),
          fmt.rate(median(results.reports.map((r) => r.framesPerSec))),
        ),
        infoRow(`server CPU, lowest–highest of ${rounds} rounds`, `no reports ${spread('quiet')}`, spread('reports')),
      ],
      notes: [
        `Two real servers (ONAIR_DB_SYNC=normal, log level warn, metrics on), ${CHANNELS} channels each with the scoreboard on program, ` +
          `${PER_CHANNEL} output-token pages per channel and one control socket per channel putting a new value on air ${PATCHES} times a second; ` +
          `side by side through ${rounds} rounds of ${seconds} s, a row shows the median round.`,
        'The pages of one server send `painted` as the output page does (at once when what they show changes, which it does not here, and every 4–5 s with the frame drawn last, each page on its own phase); the other server gets the same pages and show, and no reports.',
        `The machine was ${fmt.pct(busy)} busy before the run.`,
      ],
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runOutputs);

/**
 * The data sources benchmark's table (bench/sources.ts). The windows without polling (no sources; the sources
 * paused; in full runs no sources again, after) cost the frame clock the same, so their spread is this run's noise:
 * the polling window's lateness is "unchanged" when it is within the worst of them plus that spread (with a floor).
 */
import type { FetchGaps, Window } from './sources-rig.js';
import { boundRow, fmt, infoRow, type Row, type Table } from './table.js';

export const PLAN = { channels: 50, perChannel: 20, intervalMs: 1_000, showPatchesPerS: 300 } as const;

export interface SourcesRun {
  /** No sources: before, and in full runs after, the sources' server. */
  quiet: Window[];
  paused: Window;
  polling: Window;
  gaps: FetchGaps;
  resumeRefused: number;
  tls: boolean;
  short: boolean;
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
const lateShare = (w: Window) => (w.ticks > 0 ? w.late / w.ticks : NaN);
const mb = (n: number) => fmt.mb(n);
const withSign = (n: number, show: (n: number) => string) => `${n >= 0 ? '+' : '−'}${show(Math.abs(n))}`;
/** A difference of two shares, in percentage points. */
const points = (n: number) => `${(n * 100).toFixed(1)} points`;

/** "no sources A[, again A'], paused B" */
function quietCell(run: SourcesRun, show: (w: Window) => string): string {
  const [first, ...again] = run.quiet;
  const parts = [`no sources ${show(first!)}`, ...again.map((w) => `again ${show(w)}`), `paused ${show(run.paused)}`];
  return parts.join('; ');
}

/** A row where polling must stay within the quiet windows' worst plus their spread (at least `floor`). */
function noiseRow(
  run: SourcesRun,
  metric: string,
  value: (w: Window) => number,
  show: (n: number) => string,
  floor: number,
): Row {
  const quiet = [...run.quiet, run.paused].map(value);
  const worst = Math.max(...quiet);
  const margin = Math.max(worst - Math.min(...quiet), floor);
  const onair = value(run.polling);
  return boundRow(
    metric,
    quietCell(run, (w) => show(value(w))),
    onair,
    show,
    { max: worst + margin, text: `≤ worst quiet + max(spread, ${show(floor)}) = ${show(worst + margin)}` },
    withSign(onair - value(run.quiet[0]!), show === fmt.pct ? points : show),
  );
}

function fetchRows(run: SourcesRun): Row[] {
  const p = run.polling;
  const total = sum(p.fetchRates);
  const rate = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)}/s`;
  const perSource = (PLAN.channels * PLAN.perChannel * 1000) / PLAN.intervalMs;
  const feed = Object.entries(p.feedRates)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${rate(n)}`)
    .join(', ');
  const cpuAdded = p.serverCpu - run.quiet[0]!.serverCpu;
  return [
    boundRow(
      'fetches per second made (/metrics), 1,000 sources every 1 s ± 10 %',
      `one per source per interval: ${rate(perSource)}`,
      total,
      rate,
      { min: 0.95 * perSource, text: `≥ ${rate(0.95 * perSource)}` },
      fmt.x(total / perSource),
    ),
    infoRow(
      'fetches by outcome: changed / unchanged / 304 / failed',
      '—',
      ['changed', 'unchanged', 'not_modified', 'failed'].map((o) => rate(p.fetchRates[o] ?? 0)).join(' / '),
    ),
    infoRow('feed answers by kind and status, and connections opened (the feed process)', '—', feed),
    infoRow(
      `time between two fetches of one source, p50 / p99 / max (fetch logs of ${run.gaps.sources} sources)`,
      `the interval ± 10 %: 900–1,100 ms`,
      `${fmt.ms(run.gaps.gap.p50)} / ${fmt.ms(run.gaps.gap.p99)} / ${fmt.ms(run.gaps.gap.max)}`,
    ),
    infoRow(
      'one fetch, request to answer read, p50 / p99; failed fetches logged',
      '—',
      `${fmt.ms(run.gaps.ms.p50)} / ${fmt.ms(run.gaps.ms.p99)}; ${run.gaps.errors}`,
    ),
    infoRow(
      'server CPU (one core = 100 %)',
      quietCell(run, (w) => fmt.pct(w.serverCpu)),
      fmt.pct(p.serverCpu),
      withSign(cpuAdded, points),
    ),
    infoRow(
      "of which the server's main thread (the event loop; the rest: WAL flush, checkpoints, GC helpers)",
      quietCell(run, (w) => fmt.pct(w.mainThreadCpu)),
      fmt.pct(p.mainThreadCpu),
      withSign(p.mainThreadCpu - run.quiet[0]!.mainThreadCpu, points),
    ),
    infoRow(
      'server CPU added per fetch (polling − no sources, over fetches per second)',
      '—',
      fmt.us((cpuAdded * 1e6) / total),
    ),
    infoRow(
      'feed process CPU (not counted above)',
      quietCell(run, (w) => fmt.pct(w.feedCpu)),
      fmt.pct(p.feedCpu),
    ),
  ];
}

function memoryRows(run: SourcesRun): Row[] {
  const row = (metric: string, value: (w: Window) => number) =>
    infoRow(
      metric,
      quietCell(run, (w) => mb(value(w))),
      mb(value(run.polling)),
      withSign(value(run.polling) - value(run.quiet[0]!), mb),
    );
  return [
    row('RSS after a full GC, end of the window', (w) => w.rssAfterGc),
    row('heap used after a full GC', (w) => w.heapAfterGc),
    row('heap after GC, end of the window minus its start (growth)', (w) => w.heapAfterGc - w.heapAtStart),
    row('RSS, highest reading in the window (once a second, no GC)', (w) => w.rssPeak),
    row('written to disk per second (/proc/<pid>/io: WAL, checkpoints)', (w) => w.diskWritesPerS),
    infoRow(
      'WAL flushes (fdatasync, off the event loop) per second',
      quietCell(run, (w) => w.walFlushesPerS.toFixed(0)),
      run.polling.walFlushesPerS.toFixed(0),
    ),
  ];
}

function clockRows(run: SourcesRun): Row[] {
  const each = (show: (w: Window) => string) => [quietCell(run, show), show(run.polling)] as const;
  const info = (metric: string, show: (w: Window) => string) => infoRow(metric, ...each(show));
  return [
    noiseRow(run, 'late ticks (started > 2 ms late), 60 fps clock (/metrics)', lateShare, fmt.pct, 0.005),
    noiseRow(run, 'tick start after its frame began, p99 (diagnostics)', (w) => w.diag.tickLateness.p99, fmt.ms, 1),
    info('tick start after its frame began, p50', (w) => fmt.ms(w.diag.tickLateness.p50)),
    info('tick duration p99 (/metrics bucket bound)', (w) => `≤ ${fmt.ms(w.tickP99Ms)}`),
    info('ticks in the window', (w) => String(w.ticks)),
    info('event-loop delay p99 / max', (w) =>
      w.diag.loopDelay ? `${fmt.ms(w.diag.loopDelay.p99)} / ${fmt.ms(w.diag.loopDelay.max)}` : '—',
    ),
    info('GC pauses: count, total', (w) => `${w.diag.gc.count}, ${fmt.ms(w.diag.gc.totalMs)}`),
    info("server's main thread runnable but waiting for a CPU, ms per s", (w) => fmt.ms(w.waitMsPerS)),
    info('CPU taken by the hypervisor (steal)', (w) => fmt.pct(w.steal)),
    info(
      'load average (1 min) at the start → end of the window',
      (w) => `${w.load[0].toFixed(2)} → ${w.load[1].toFixed(2)}`,
    ),
  ];
}

export function sourcesTable(run: SourcesRun): Table {
  const scheme = run.tls ? 'HTTPS' : 'HTTP';
  return {
    title: `Data sources: ${(PLAN.channels * PLAN.perChannel).toLocaleString('en')} JSON sources polled every second on one node (${scheme})`,
    command: `npx tsx bench/sources.ts${run.short ? ' --short' : ''}${run.tls ? ' --tls' : ''}`,
    rows: [...fetchRows(run), ...memoryRows(run), ...clockRows(run)],
    notes: [
      `${PLAN.channels} channels × ${PLAN.perChannel} json_url sources at intervalMs ${PLAN.intervalMs}, each channel with the scoreboard and ` +
        `a scene declaring its sources' inputs; per channel 1 feed that changes at every fetch, 1 that answers the same ` +
        `body without validators, ${PLAN.perChannel - 2} that answer 304 to their ETag; one ${scheme} origin per channel on 127.0.0.1, ` +
        'bodies of about 1.5 KB, the feeds in a process of their own.',
      `A steady show in every window: ${PLAN.showPatchesPerS} patches a second over the channels, submitted in the server's ` +
        'process, so the 60 fps clock ticks at every frame. ONAIR_DB_SYNC=full (the default), ONAIR_WEBHOOK_ALLOW_PRIVATE=true, ' +
        'the limit of 20 sources per channel unchanged.',
      `Windows of ${run.polling.seconds.toFixed(0)} s: no sources (a server with the same channels and scenes)` +
        `${run.quiet.length > 1 ? ', again after the others' : ''}; the sources paused; then, on the same server, every ` +
        'source resumed (PATCH paused: false, spread over one interval, as sources saved over time are) and measured ' +
        `after a warm-up. ${run.resumeRefused} resumes refused.`,
      'Quiet windows (no sources, paused) differ only by noise: "within noise" is at most the worst of them plus their ' +
        'spread (at least 0.5 percentage point of late ticks, 1 ms of tick lateness).',
    ],
  };
}

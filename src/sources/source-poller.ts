/**
 * When each data source is fetched (docs/data-sources.md, "Polling"): one timer per source, on the node that ticks
 * its channel only.
 *
 * - A source is fetched every `intervalMs`, ±10 % (so sources saved together drift apart); after a failure the wait
 *   doubles with each failure in a row, up to 5 minutes (or the interval, when that is longer), and is back to the
 *   interval after a success.
 * - Never two fetches of one source at once on a node: a refresh while a fetch runs gets that fetch's outcome; a
 *   cursor move waits for it, then fetches.
 * - Only the node that ticks the channel (Engine.ticks) polls it, asked again before every fetch and every
 *   `sweepMs`: a node that takes a channel over starts its sources within that time, at the time they fall due
 *   (the last fetch's time is in the store), and a node that lost it stops.
 * - Sources written on this node are put() / remove()d at once. With several nodes, the store is read again every
 *   `resyncMs` for those written on other nodes; every fetch reads its source afresh anyway (source-round.ts).
 */
import type { Logger } from 'pino';
import type { Engine } from '../engine/index.js';
import type { SourceRecord, SourceStore } from '../store/source-store.js';
import type { RoundOptions, RoundOutcome } from './source-round.js';

/** The longest wait after failures (unless the interval is longer). */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** ±10 %. */
const JITTER = 0.1;

export interface SourcePollerDeps {
  store: Pick<SourceStore, 'listAllSources'>;
  engine: Pick<Engine, 'ticks'>;
  round: (id: string, options?: RoundOptions) => Promise<RoundOutcome>;
  logger: Logger;
  now?: () => number;
  /** In [0, 1): the jitter's draw. */
  random?: () => number;
  /** How often ownership is looked at again. Default 1,000 ms. */
  sweepMs?: number;
  /** Several nodes: how often the sources are read again from the store. Default: never (one node). */
  resyncMs?: number | undefined;
}

interface Entry {
  id: string;
  channelId: string;
  intervalMs: number;
  paused: boolean;
  failCount: number;
  /** Epoch ms of the last fetch, or null before the first. */
  lastFetchAt: number | null;
  /** Written on this node since its last fetch began: fetched at once, not an interval after that fetch. */
  dueNow: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<RoundOutcome> | null;
}

/** The wait before the next fetch: the interval, doubled per failure in a row up to MAX_BACKOFF_MS. */
export function pollDelay(intervalMs: number, failCount: number): number {
  if (failCount === 0) return intervalMs;
  return Math.min(intervalMs * 2 ** Math.min(failCount, 30), Math.max(MAX_BACKOFF_MS, intervalMs));
}

export class SourcePoller {
  private readonly entries = new Map<string, Entry>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: SourcePollerDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  /** Reads every source and starts the timers of those this node polls. */
  async start(): Promise<void> {
    for (const record of await this.deps.store.listAllSources()) this.sync(record);
    this.every(this.deps.sweepMs ?? 1_000, () => this.sweep());
    const resyncMs = this.deps.resyncMs;
    if (resyncMs !== undefined) this.every(resyncMs, () => void this.resync());
  }

  /** Stops every timer and waits for the fetches running. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const e of this.entries.values()) this.clear(e);
    const running = [...this.entries.values()].flatMap((e) => (e.running ? [e.running] : []));
    await Promise.allSettled(running);
  }

  /** A source just written on this node: fetched at once (a new or edited source), unless paused. */
  put(record: SourceRecord): void {
    const entry = this.sync(record);
    entry.dueNow = true;
    this.clear(entry);
    this.schedule(entry);
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry) this.clear(entry);
    this.entries.delete(id);
  }

  /** A channel deleted: its sources (deleted with it) are forgotten. */
  forgetChannel(channelId: string): void {
    for (const e of [...this.entries.values()]) if (e.channelId === channelId) this.remove(e.id);
  }

  /**
   * Fetches the source now, whichever node this is (a refresh, a cursor move): joins the fetch running, or (a move)
   * waits for it and then fetches.
   */
  async fetchNow(id: string, options: RoundOptions = {}): Promise<RoundOutcome> {
    const entry = this.entries.get(id);
    if (!entry) return this.deps.round(id, options);
    if (entry.running && options.move === undefined) return entry.running;
    while (entry.running) await entry.running;
    return this.run(entry, options);
  }

  private run(entry: Entry, options: RoundOptions): Promise<RoundOutcome> {
    this.clear(entry);
    entry.dueNow = false;
    const running = this.deps
      .round(entry.id, options)
      .catch((err: unknown): RoundOutcome => {
        this.deps.logger.error({ err, sourceId: entry.id }, 'data source fetch not recorded');
        return { kind: 'fetched', failCount: entry.failCount + 1 };
      })
      .then((outcome) => {
        this.settled(entry, outcome);
        return outcome;
      })
      .finally(() => {
        entry.running = null;
        this.schedule(entry);
      });
    entry.running = running;
    return running;
  }

  private settled(entry: Entry, outcome: RoundOutcome): void {
    if (outcome.kind === 'gone') this.remove(entry.id);
    else if (outcome.kind === 'paused') entry.paused = true;
    else {
      entry.failCount = outcome.failCount;
      entry.lastFetchAt = this.now();
    }
  }

  /** The entry for the record, made or brought up to date; its timer restarted when its timing changed. */
  private sync(record: SourceRecord): Entry {
    let entry = this.entries.get(record.id);
    if (!entry) {
      const { id, channelId } = record;
      entry = {
        id,
        channelId,
        intervalMs: 0,
        paused: false,
        failCount: 0,
        lastFetchAt: null,
        dueNow: false,
        timer: null,
        running: null,
      };
      this.entries.set(id, entry);
    }
    const retimed = entry.intervalMs !== record.intervalMs || entry.paused !== record.paused;
    entry.intervalMs = record.intervalMs;
    entry.paused = record.paused;
    entry.failCount = record.failCount;
    entry.lastFetchAt = record.lastFetchAt === null ? null : Date.parse(record.lastFetchAt);
    if (retimed) {
      this.clear(entry);
      this.schedule(entry);
    }
    return entry;
  }

  /** Starts the timer of a source this node polls, due one (jittered, backed-off) interval after its last fetch. */
  private schedule(entry: Entry): void {
    if (this.stopped || entry.paused || entry.timer || entry.running || !this.entries.has(entry.id)) return;
    if (!this.deps.engine.ticks(entry.channelId)) return;
    const wait = pollDelay(entry.intervalMs, entry.failCount) * (1 - JITTER + 2 * JITTER * this.random());
    const due = entry.lastFetchAt === null || entry.dueNow ? this.now() : entry.lastFetchAt + wait;
    entry.timer = setTimeout(() => this.fire(entry), Math.max(0, due - this.now()));
    entry.timer.unref();
  }

  private fire(entry: Entry): void {
    entry.timer = null;
    // Asked again now: the channel may have moved to another node since the timer was set.
    if (this.stopped || !this.deps.engine.ticks(entry.channelId)) return;
    void this.run(entry, {});
  }

  private clear(entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
  }

  /** Starts the sources of channels this node took over; stops those of channels it no longer ticks. */
  private sweep(): void {
    for (const entry of this.entries.values()) {
      if (!this.deps.engine.ticks(entry.channelId)) this.clear(entry);
      else this.schedule(entry);
    }
  }

  /** Several nodes: sources created, edited or deleted on other nodes. */
  private async resync(): Promise<void> {
    try {
      const records = await this.deps.store.listAllSources();
      if (this.stopped) return;
      const ids = new Set(records.map((r) => r.id));
      for (const id of [...this.entries.keys()]) if (!ids.has(id) && !this.entries.get(id)!.running) this.remove(id);
      for (const record of records) this.sync(record);
    } catch (err) {
      this.deps.logger.warn({ err }, 'data sources not read again');
    }
  }

  private every(ms: number, work: () => void): void {
    const timer = setInterval(work, ms);
    timer.unref();
    this.timers.push(timer);
  }
}

/**
 * One output: an output-token connection, listed from its first report on (docs/outputs.md). It keeps the last
 * report, the load failures of the last minute, its health, and which on-air instance of each layer it confirmed.
 * What it is told has already been checked against the channel (outputs.ts).
 */
import type { OutputError, OutputHealth, OutputView, PaintedLayer } from '@onair/protocol';
import { newId } from '../ids.js';
import { behind, Debounced, ERROR_WINDOW_MS, FIRST_REPORT_MS, HEALTH_HOLD_MS, healthOf } from './output-health.js';
import type { PaintedReport } from './painted-report.js';

/** Reports taken from one connection in any second; more are dropped (a page sends at most 2, and 1 on an OBS event). */
export const REPORTS_PER_SECOND = 5;
/** Load failures an output keeps (the newest). */
const KEPT_ERRORS = 20;

/** What the transport holds for an output-token connection. */
export interface OutputHandle {
  readonly id: string;
  readonly channelId: string;
}

/** What a report changed. */
export interface Applied {
  /**
   * What the `outputs` message is sent for changed: the output's health, layers, size, kind, bus, OBS flags or
   * failures (a new painted frame, lag or frame rate alone is not: it rides with the next message).
   */
  changed: boolean;
  first: boolean;
  /** Failures not already reported in the last minute (same URL and message). */
  newErrors: OutputError[];
}

export class OutputState implements OutputHandle {
  readonly id = newId('out');
  listed = false;
  closed = false;
  report: PaintedReport | null = null;
  reportedAt = 0;
  lag = 0;
  health: OutputHealth = 'ok';
  readonly lagging = new Debounced(false, HEALTH_HOLD_MS);
  private errors: (OutputError & { atMs: number })[] = [];
  private window = { start: 0, count: 0 };
  /** Per layer, the key of the on-air instance this output confirmed. */
  private readonly confirmed = new Map<number, string>();

  constructor(
    readonly channelId: string,
    readonly address: string,
    readonly connectedAt: number,
  ) {}

  /** Counts a report against the connection's rate; false when over it. */
  admit(now: number): boolean {
    if (now - this.window.start >= 1_000) this.window = { start: now, count: 0 };
    this.window.count += 1;
    return this.window.count <= REPORTS_PER_SECOND;
  }

  apply(report: PaintedReport, lag: number, now: number): Applied {
    const first = !this.listed;
    const changed = first || differs(this.report!, report);
    this.listed = true;
    this.report = report;
    this.reportedAt = now;
    this.lag = lag;
    const newErrors = this.addErrors(report, now);
    const evaluated = this.evaluate(now);
    return { changed: changed || newErrors.length > 0 || evaluated.changed, first, newErrors };
  }

  /** True the first time this output confirms the instance `key` on `layer`. */
  confirm(layer: number, key: string): boolean {
    if (this.confirmed.get(layer) === key) return false;
    this.confirmed.set(layer, key);
    return true;
  }

  /** The health at `now`; `rose`: it has just become lagging. */
  evaluate(now: number): { changed: boolean; rose: boolean } {
    const since = this.listed ? this.reportedAt : this.connectedAt + FIRST_REPORT_MS;
    const rose = this.lagging.update(behind(this.lag, since, now), now) && this.lagging.value;
    const expired = this.errors.length > 0 && now - this.errors[0]!.atMs > ERROR_WINDOW_MS;
    if (expired) this.errors = this.errors.filter((e) => now - e.atMs <= ERROR_WINDOW_MS);
    const health = healthOf(this.errors.length > 0, this.lagging.value);
    const changed = health !== this.health || expired;
    this.health = health;
    return { changed, rose };
  }

  view(): OutputView {
    const r = this.report!;
    return {
      id: this.id,
      kind: r.kind,
      bus: r.bus,
      address: this.address,
      connectedAt: new Date(this.connectedAt).toISOString(),
      reportedAt: new Date(this.reportedAt).toISOString(),
      paintedFrame: r.frame,
      lagFrames: this.lag,
      fps: r.fps,
      size: { width: r.width, height: r.height },
      visible: r.visible,
      active: r.active,
      errors: this.errors.map(({ at, message, url }) => ({ at, message, url })),
      health: this.health,
      layers: r.layers,
    };
  }

  private addErrors(report: PaintedReport, now: number): OutputError[] {
    const added: OutputError[] = [];
    for (const { message, url } of report.errors) {
      if (this.errors.some((e) => e.url === url && e.message === message)) continue;
      const error = { at: new Date(now).toISOString(), message, url };
      added.push(error);
      this.errors.push({ ...error, atMs: now });
    }
    if (this.errors.length > KEPT_ERRORS) this.errors = this.errors.slice(-KEPT_ERRORS);
    return added;
  }
}

function differs(a: PaintedReport, b: PaintedReport): boolean {
  return (
    a.width !== b.width ||
    a.height !== b.height ||
    a.kind !== b.kind ||
    a.bus !== b.bus ||
    a.visible !== b.visible ||
    a.active !== b.active ||
    !sameLayers(a.layers, b.layers)
  );
}

function sameLayers(a: PaintedLayer[], b: PaintedLayer[]): boolean {
  return (
    a.length === b.length &&
    a.every((l, i) => {
      const m = b[i]!;
      return l.layer === m.layer && l.sceneId === m.sceneId && l.itemId === m.itemId && l.inDone === m.inDone;
    })
  );
}

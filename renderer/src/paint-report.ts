/**
 * The page's `painted` report (docs/outputs.md, "What a page reports"): what the browser has drawn, sent on the
 * render socket when what it shows changed (layers, an `in` done, a failure, OBS flags, its size), never more often
 * than REPORT_MIN_INTERVAL_MS, and at least every REPORT_ALIVE_MS while the page paints (the caller tells it of a
 * paint that often), so the server can tell a page that cannot paint by its silence. A new frame alone (new values
 * drawn) goes with the next report: each report is a message the server receives. Pure: the caller brings the socket
 * and the clock.
 */
import {
  HOST_FLAG_KINDS,
  REPORT_ALIVE_MS,
  REPORT_LIMITS,
  REPORT_MIN_INTERVAL_MS,
  type OutputBus,
  type OutputKind,
  type PaintedError,
  type PaintedLayer,
  type PaintedMessage,
} from '@onair/protocol';

/** A picture the browser has drawn. */
export interface Painted {
  /** The channel frame whose state it shows. */
  frame: number;
  layers: PaintedLayer[];
  fps: number;
  width: number;
  height: number;
}

export interface PaintReportDeps {
  /** Sends on the render socket; false when it is not open (the report is dropped, the next one goes). */
  send(msg: PaintedMessage): boolean;
  now(): number;
  /** Calls `fn` once after `ms`. */
  later(fn: () => void, ms: number): void;
  kind: OutputKind;
  bus: OutputBus;
}

export interface PaintReporter {
  /** The browser has drawn this picture. */
  painted(picture: Painted): void;
  failed(error: PaintedError): void;
  /** The host told the page whether it is shown (`visible`) or on program (`active`): OBS, or CasparCG's PLAY/STOP. */
  host(flags: { visible?: boolean; active?: boolean }): void;
  /** A new connection (a new output for the server): everything again, the last minute's failures too. */
  reconnected(): void;
}

/**
 * A report is due for being alive a little before REPORT_ALIVE_MS: the paint that offers the chance comes every
 * REPORT_ALIVE_MS, give or take a display frame, and must not just miss it.
 */
const ALIVE_DUE_MS = REPORT_ALIVE_MS * 0.8;
/** Failures sent again to a new connection when they are this recent. */
const RESEND_FAILURES_MS = 60_000;

export function createPaintReporter(deps: PaintReportDeps): PaintReporter {
  let picture: Painted | null = null;
  const flags: { visible: boolean | null; active: boolean | null } = { visible: null, active: null };
  let pending: PaintedError[] = [];
  let recent: { error: PaintedError; at: number }[] = [];
  let sentAt = -Infinity;
  let sentKey = '';
  let waiting = false;

  const keyOf = (p: Painted) => JSON.stringify([p.layers, p.width, p.height, flags.visible, flags.active]);

  function message(p: Painted): PaintedMessage {
    const msg: PaintedMessage = { op: 'painted', ...p, kind: deps.kind, bus: deps.bus };
    if (HOST_FLAG_KINDS.includes(deps.kind)) Object.assign(msg, flags);
    if (pending.length > 0) msg.errors = pending.slice(0, REPORT_LIMITS.errors);
    return msg;
  }

  function flush(): void {
    waiting = false;
    if (!picture) return;
    if (!deps.send(message(picture))) return;
    sentAt = deps.now();
    sentKey = keyOf(picture);
    pending = pending.slice(REPORT_LIMITS.errors);
  }

  function consider(): void {
    if (!picture || waiting) return;
    const now = deps.now();
    const changed = pending.length > 0 || keyOf(picture) !== sentKey;
    if (!changed && now - sentAt < ALIVE_DUE_MS) return;
    const wait = sentAt + REPORT_MIN_INTERVAL_MS - now;
    if (wait <= 0) return flush();
    waiting = true;
    deps.later(flush, wait);
  }

  return {
    painted(next) {
      picture = next;
      consider();
    },
    failed(error) {
      const now = deps.now();
      recent = [...recent.filter((r) => now - r.at < RESEND_FAILURES_MS), { error, at: now }].slice(
        -REPORT_LIMITS.errors,
      );
      if (pending.length < REPORT_LIMITS.errors * 2) pending.push(error);
      consider();
    },
    host(given) {
      if (given.visible !== undefined) flags.visible = given.visible;
      if (given.active !== undefined) flags.active = given.active;
      consider();
    },
    reconnected() {
      const now = deps.now();
      sentAt = -Infinity;
      sentKey = '';
      const again = recent.filter((r) => now - r.at < RESEND_FAILURES_MS).map((r) => r.error);
      pending = [...again, ...pending.filter((e) => !again.includes(e))];
    },
  };
}

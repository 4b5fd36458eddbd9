/**
 * What an output page reports of its own drawing, and what the server shows of its outputs (docs/outputs.md): the
 * `painted` report a page sends on its render socket, and the output as the API's list and the `outputs` message
 * show it. The page and the server share the cadence and the limits below, so a page never sends what the server
 * would clip.
 */

/** Where an output page runs: told by the page from what its host exposes (docs/outputs.md, "Kinds"). */
export const OUTPUT_KINDS = ['obs', 'casparcg', 'vmix', 'browser'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];
/** The hosts that tell a page whether it is shown: only their reports carry `visible` and `active`. */
export const HOST_FLAG_KINDS: readonly OutputKind[] = ['obs', 'casparcg'];

/** `ok` green, `lagging` amber, `error` red (docs/outputs.md, "Health"). */
export const OUTPUT_HEALTHS = ['ok', 'lagging', 'error'] as const;
export type OutputHealth = (typeof OUTPUT_HEALTHS)[number];

/** The bus an output page draws (its URL's `bus`). */
export type OutputBus = 'program' | 'preview';

/**
 * A page reports what it shows (its layers, their `in` done, failures, OBS flags, its size) as soon as it changes,
 * but never more often than this...
 */
export const REPORT_MIN_INTERVAL_MS = 500;
/**
 * ...and, while it can paint, at least this often, with the frame it painted last (a new frame alone waits for it):
 * its silence means it cannot paint. Each report costs the server a message received, so this is what 1,000 pages
 * cost (docs/performance.md, "Output reports").
 */
export const REPORT_ALIVE_MS = 5_000;

/** What one report may carry; more is clipped by the server (and counted). */
export const REPORT_LIMITS = {
  layers: 64,
  errors: 10,
  /** Characters of an error's message, and of its URL. */
  message: 300,
  url: 1_000,
  /** Characters of an id (a scene's, an item's). */
  id: 100,
} as const;

/** One layer of the bus as the page painted it. */
export interface PaintedLayer {
  layer: number;
  sceneId: string;
  /** The rundown item the instance came from, or null. */
  itemId: string | null;
  /** True once the scene's `in` transition has finished (a scene drawn settled, or cut, is done at once). */
  inDone: boolean;
}

/** An image or a font the page could not load. The URL never carries the output token. */
export interface PaintedError {
  message: string;
  url: string | null;
}

/**
 * Sent by an output page (an output-token connection) after the browser has drawn: when what it shows changed, at most
 * every REPORT_MIN_INTERVAL_MS, and at least every REPORT_ALIVE_MS while it can paint. Never answered.
 */
export interface PaintedMessage {
  op: 'painted';
  /** The channel frame whose state the last painted picture shows. */
  frame: number;
  /** The bus's layers as painted, by layer. */
  layers: PaintedLayer[];
  /** Display frames per second, as measured by the page. */
  fps: number;
  /** The page's viewport, in CSS pixels. */
  width: number;
  height: number;
  kind?: OutputKind;
  bus?: OutputBus;
  /**
   * OBS: the source is shown in some view (`visible`), on program (`active`). CasparCG: both true after its PLAY,
   * false after its STOP. Null while the host has not said, and outside those two hosts.
   */
  visible?: boolean | null;
  active?: boolean | null;
  /** Load failures since the previous report. */
  errors?: PaintedError[];
}

/** A load failure as the server keeps it: dated when the report arrived. */
export interface OutputError {
  /** ISO 8601 */
  at: string;
  message: string;
  url: string | null;
}

/** A connected output, as `GET /v1/channels/{id}/outputs` and the `outputs` message show it. */
export interface OutputView {
  /** `out_…`: one connection of an output page; a reconnected page is a new output. */
  id: string;
  kind: OutputKind;
  bus: OutputBus;
  /** The client's address, as the connection limits count it. */
  address: string;
  /** ISO 8601 */
  connectedAt: string;
  /** ISO 8601: when its last report arrived. */
  reportedAt: string;
  paintedFrame: number;
  /** How many frames the oldest change it has not painted has been out, when its last report arrived; 0 when up to date. */
  lagFrames: number;
  fps: number;
  size: { width: number; height: number };
  /** OBS only (null elsewhere, and while OBS has not said). */
  visible: boolean | null;
  active: boolean | null;
  /** Load failures in the last minute, newest last. */
  errors: OutputError[];
  health: OutputHealth;
  layers: PaintedLayer[];
}

/** Output pages whose token the server refused (a rotated or mistyped output URL), on every node. */
export interface RefusedOutputs {
  count: number;
  /** ISO 8601 */
  lastAt: string;
  lastAddress: string;
}

/**
 * Sent to key and session connections (never to output pages) when a channel's outputs change, at most twice a
 * second: the channel's outputs on every node (the 100 least healthy when there are more), and the refused pages.
 */
export interface OutputsMessage {
  type: 'outputs';
  channelId: string;
  outputs: OutputView[];
  /** How many outputs the channel has (`outputs` holds at most 100 of them). */
  total: number;
  refused: RefusedOutputs | null;
}

/** The URL without its `token` query parameter: what a page reports and the server shows never carries one. */
export function withoutToken(url: string): string {
  return url.replace(/([?&])token=[^&#]*&?/gi, '$1').replace(/[?&](?=#|$)/, '');
}

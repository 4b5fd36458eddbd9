/**
 * Sketch mode (`/render/<channelId>?sketch=1`, docs/renderer.md): the page opens no socket and draws whatever
 * snapshot its parent page posts, `window.postMessage({ type: 'onair.sketch', snapshot }, origin)`. The dashboard's
 * scene editor frames it to preview a definition that is not saved, let alone on air. Each post is applied as a
 * snapshot through the page's own reducer, so it is drawn by exactly the code that draws the air.
 *
 * Only the page's parent, from this page's own origin, is listened to; anything else is ignored.
 */
import type { SnapshotMessage } from '@onair/protocol';
import type { Connection, ConnectionStatus } from './connection.js';

export const SKETCH_MESSAGE_TYPE = 'onair.sketch';
/**
 * What the page posts to its parent (same origin only) once it listens: a parent that posted before the page's
 * script ran posts its sketch again.
 */
export const SKETCH_READY_TYPE = 'onair.sketch.ready';

/** What the parent posts. */
export interface SketchPost {
  type: typeof SKETCH_MESSAGE_TYPE;
  snapshot: SnapshotMessage;
}

/** The parts of a MessageEvent the check reads. */
export interface SketchEvent {
  origin: string;
  source: unknown;
  data: unknown;
}

/** Who may post: the page's own origin, and its parent window (null when the page is not framed). */
export interface SketchSender {
  origin: string;
  parent: unknown;
}

/** The snapshot to draw from a posted message, or null when the message is not a sketch from the parent. */
export function sketchSnapshot(event: SketchEvent, sender: SketchSender): SnapshotMessage | null {
  if (sender.parent === null || event.source !== sender.parent || event.origin !== sender.origin) return null;
  const data = event.data;
  if (!isRecord(data) || data.type !== SKETCH_MESSAGE_TYPE) return null;
  return isSnapshot(data.snapshot) ? data.snapshot : null;
}

/** The shape the reducer relies on; the values inside (scenes, inputs) are drawn as the socket's would be. */
function isSnapshot(value: unknown): value is SnapshotMessage {
  if (!isRecord(value) || value.type !== 'snapshot' || typeof value.channelId !== 'string') return false;
  const numbers = ['frame', 'serverTime', 'fps', 'width', 'height'] as const;
  if (!numbers.every((key) => typeof value[key] === 'number' && Number.isFinite(value[key]))) return false;
  const lists = ['program', 'preview', 'scenes'] as const;
  if (!lists.every((key) => Array.isArray(value[key]))) return false;
  return isRecord(value.inputs) && isRecord(value.clocks);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The page's feed in sketch mode, in place of the render socket: `start()` listens for posts and hands each
 * sketch to `apply` with the local time it arrived, and tells the parent it is ready; its status is `open`
 * while it listens.
 */
export function createSketchFeed(
  win: Window,
  apply: (snapshot: SnapshotMessage, receivedAt: number) => void,
): Connection {
  let status: ConnectionStatus = 'closed';
  // A page that is not framed is its own parent: it has nobody to listen to.
  const parent = win.parent === win ? null : win.parent;
  return {
    start() {
      if (status === 'open') return;
      status = 'open';
      win.addEventListener('message', (event: MessageEvent<unknown>) => {
        const snapshot = sketchSnapshot(event, { origin: win.location.origin, parent });
        if (snapshot) apply(snapshot, Date.now());
      });
      parent?.postMessage({ type: SKETCH_READY_TYPE }, win.location.origin);
    },
    nudge: () => undefined,
    status: () => status,
    // No socket: a sketch reports nothing.
    send: () => false,
  };
}

/**
 * Slow consumers (docs/api.md, "Real-time WebSocket", "Slow consumers"): a connection whose unsent data (what the
 * kernel's socket buffer could not take) passes SLOW_CONSUMER_BYTES is closed with 4100, so the server's memory per
 * connection stays bounded and the client, once it reads again, learns why and resyncs by reconnecting.
 *
 * uWS's own limit (maxBackpressure) is switched off: past it, uWS drops messages, and it would drop the close frame
 * too, leaving the client a bare 1006. Instead every write goes through admitsMore() first: before each message
 * sent to one socket, and for every subscriber of a topic before each publish to it. The close frame is then
 * queued behind the data already waiting, and reaches the client when it reads again.
 *
 * The rest of a snapshot still draining is allowed on top of the cap (snapshotGrace): a snapshot can be larger than
 * the cap by itself, and a renderer on a slow link must not be closed while it reads the snapshot it just asked for.
 * So a connection holds at most the cap, plus its last snapshot, plus the one message that crossed the line.
 */
import { CloseCode } from '@onair/protocol';
import type { SocketData } from './socket-data.js';
import type { WebSocket } from './uws.js';

export const SLOW_CONSUMER_BYTES = 256 * 1024;
export const SLOW_CONSUMER_REASON = 'slow consumer: reconnect and resync';

/** Whether more may be queued for the socket; when not, it has just been closed with 4100 (or was closed). */
export function admitsMore(ws: WebSocket<SocketData>, data: SocketData): boolean {
  if (data.closed) return false;
  const buffered = ws.getBufferedAmount();
  if (buffered <= SLOW_CONSUMER_BYTES) {
    data.snapshotGrace = 0;
    return true;
  }
  if (buffered <= SLOW_CONSUMER_BYTES + data.snapshotGrace) return true;
  ws.end(CloseCode.slowConsumer, SLOW_CONSUMER_REASON);
  return false;
}

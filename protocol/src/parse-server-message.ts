/** Reading what the server sends on the real-time WebSocket. */
import type { ServerMessage } from './messages.js';

const TYPES = ['snapshot', 'frame', 'ack', 'error', 'heartbeat', 'outputs', 'sources', 'channel_removed'];
const SERVER_MESSAGE_TYPES: ReadonlySet<string> = new Set(TYPES);

/**
 * A JSON message with a known `type`, or null for anything else (not JSON, not an object, an unknown type).
 * Takes text, or the bytes some WebSocket implementations hand over for it.
 */
export function parseServerMessage(data: unknown): ServerMessage | null {
  const text = asText(data);
  if (text === null) return null;
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null) return null;
  return SERVER_MESSAGE_TYPES.has((msg as { type?: unknown }).type as string) ? (msg as ServerMessage) : null;
}

function asText(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  return null;
}

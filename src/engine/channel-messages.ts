/**
 * What the engine publishes on a channel's broker topic (broker.ts), as bytes encoded once by the publisher:
 *
 * - a frame: the JSON text for `buses` connections and, when it differs, the JSON text for `scenes=all` ones
 *   (scene-scope.ts), so a transport sends the bytes it received without parsing them;
 * - a revoke: the channel's renderers must be disconnected (output token rotated, or channel deleted).
 *
 * Layout: one kind byte ('F' or 'R'). A frame then has the byte length of the buses JSON (4 bytes, big-endian), that
 * JSON, and the `scenes=all` JSON or nothing when it is the same. A revoke then has its reason in UTF-8.
 */
import type { FrameMessage } from '@onair/protocol';

export type RevokeReason = 'token_rotated' | 'channel_deleted';

/** A decoded message: frames still as JSON text (UTF-8 bytes), ready to send. */
export type ChannelMessage =
  { kind: 'frame'; buses: Uint8Array; all: Uint8Array } | { kind: 'revoke'; reason: RevokeReason };

const FRAME = 0x46; // 'F'
const REVOKE = 0x52; // 'R'
const REASONS: readonly RevokeReason[] = ['token_rotated', 'channel_deleted'];

/** `buses` may be the very same object as `all` (no scene definitions differ): it is then encoded once. */
export function encodeFrame(all: FrameMessage, buses: FrameMessage): Uint8Array {
  const busesJson = Buffer.from(JSON.stringify(buses));
  const allJson = buses === all ? Buffer.alloc(0) : Buffer.from(JSON.stringify(all));
  const out = Buffer.allocUnsafe(5 + busesJson.length + allJson.length);
  out[0] = FRAME;
  out.writeUInt32BE(busesJson.length, 1);
  busesJson.copy(out, 5);
  allJson.copy(out, 5 + busesJson.length);
  return out;
}

export function encodeRevoke(reason: RevokeReason): Uint8Array {
  return Buffer.concat([Buffer.from([REVOKE]), Buffer.from(reason)]);
}

/** Throws on bytes this module did not write (a corrupt or foreign message on the topic). */
export function decodeChannelMessage(payload: Uint8Array): ChannelMessage {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (bytes[0] === FRAME && bytes.length >= 5) {
    const length = bytes.readUInt32BE(1);
    if (5 + length > bytes.length) throw new Error('broker message: frame shorter than its header says');
    const buses = bytes.subarray(5, 5 + length);
    const rest = bytes.subarray(5 + length);
    return { kind: 'frame', buses, all: rest.length > 0 ? rest : buses };
  }
  if (bytes[0] === REVOKE) {
    const reason = bytes.subarray(1).toString('utf8') as RevokeReason;
    if (REASONS.includes(reason)) return { kind: 'revoke', reason };
  }
  throw new Error('broker message: unknown kind');
}

/** Where a frame's JSON says its number: toFrameMessage writes `type`, `channelId`, then `frame`. */
const FRAME_NUMBER = /"frame":(\d+)/;
const FRAME_NUMBER_WITHIN = 256;

/** The frame number of a decoded frame's JSON, read without parsing it; null when it is not near the start. */
export function frameNumberOf(json: Uint8Array): number | null {
  const head = Buffer.from(json.buffer, json.byteOffset, Math.min(json.byteLength, FRAME_NUMBER_WITHIN));
  const match = FRAME_NUMBER.exec(head.toString('latin1'));
  return match ? Number(match[1]) : null;
}

/** The `scenes=all` frame of a frame message, parsed (for tests and tools; transports send the bytes). */
export function parseFrame(payload: Uint8Array): FrameMessage | null {
  const msg = decodeChannelMessage(payload);
  return msg.kind === 'frame' ? (JSON.parse(Buffer.from(msg.all).toString('utf8')) as FrameMessage) : null;
}

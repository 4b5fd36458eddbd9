/**
 * How a load generator talks to each server under test: where renderers and control sockets connect,
 * what a "put this value on air" message looks like, and how to read the value back out of a frame.
 * Every baseline sends the same frame JSON as onair (same keys, same sizes), so only the server differs.
 */
import { LOCALHOST } from './child.js';
import { connectLite, type LiteOptions, type LiteSocket } from './ws-lite.js';

export type Kind = 'onair' | 'uws' | 'ws' | 'socketio';

export const KIND_NAMES: Record<Kind, string> = {
  onair: 'onair',
  uws: 'raw uWebSockets.js pub/sub',
  ws: '`ws` send loop',
  socketio: 'socket.io room',
};

export interface Target {
  kind: Kind;
  port: number;
  /** API key (onair control sockets and REST). */
  key?: string;
}

export interface ChannelRef {
  id: string;
  /** Output token (onair renderers). */
  token?: string;
}

type Handlers = Pick<LiteOptions, 'onMessage' | 'wantText' | 'onClose' | 'onCloseFrame'>;

function pathFor(t: Target, ch: ChannelRef, control: boolean): string {
  if (t.kind === 'socketio') return `/socket.io/?EIO=4&transport=websocket&channel=${ch.id}`;
  if (t.kind === 'onair') return control ? `/v1/ws?channel=${ch.id}` : `/v1/ws?channel=${ch.id}&token=${ch.token}`;
  return `/ws?channel=${ch.id}`;
}

async function open(t: Target, ch: ChannelRef, control: boolean, h: Handlers): Promise<LiteSocket> {
  const headers = control && t.kind === 'onair' ? { authorization: `Bearer ${t.key}` } : undefined;
  const socket = await connectLite({
    host: LOCALHOST,
    port: t.port,
    path: pathFor(t, ch, control),
    eio: t.kind === 'socketio',
    ...(headers ? { headers } : {}),
    ...h,
  });
  if (t.kind === 'socketio') socket.send('40'); // join the default namespace
  return socket;
}

export const connectRenderer = (t: Target, ch: ChannelRef, h: Handlers) => open(t, ch, false, h);
/** A socket that may put values on air; it is subscribed to the channel too, on every server. */
export const connectControl = (t: Target, ch: ChannelRef, h: Handlers = {}) => open(t, ch, true, h);

/** The message a control socket sends to put `seq` on air as input scoreA. */
export function patchMessage(kind: Kind, seq: number): string {
  if (kind === 'onair') return `{"op":"patch","id":"${seq}","inputs":{"scoreA":${seq}}}`;
  if (kind === 'socketio') return `42["pub",${seq}]`;
  return String(seq);
}

/**
 * scoreA and serverTime (epoch ms, when the frame was published) of a frame message, or null for anything
 * else (snapshots, acks, connect packets).
 */
export function readFrame(kind: Kind, text: string): { seq: number; serverTime: number } | null {
  let msg: unknown;
  if (kind === 'socketio') {
    if (!text.startsWith('2[')) return null;
    msg = (JSON.parse(text.slice(1)) as unknown[])[1];
  } else {
    msg = JSON.parse(text);
  }
  const frame = msg as { type?: string; serverTime?: number; inputs?: { scoreA?: unknown } };
  if (frame.type !== 'frame' || typeof frame.inputs?.scoreA !== 'number') return null;
  return { seq: frame.inputs.scoreA, serverTime: Number(frame.serverTime) };
}

/** A channel id shaped like onair's (`ch_` + 32 hex), for baselines. */
export function fakeChannelId(i: number): string {
  return `ch_01a2${i.toString(16).padStart(28, '0')}`;
}

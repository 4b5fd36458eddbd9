/**
 * An operation on a channel: sent on the socket and settled by its ack, or, while the socket is down, made over REST
 * (the same operation under the same rules, docs/api.md "Client ops"). An op already sent is never sent again over
 * REST when the link drops before its answer: it may have been applied.
 */
import type { RestClient } from './rest-client.js';
import { OpError, type OnairSocket } from './socket-client.js';

export type Op =
  | { op: 'patch'; inputs: Record<string, unknown> }
  | { op: 'cue' | 'cut'; sceneId?: string; itemId?: string; values?: Record<string, unknown> }
  | { op: 'take' | 'continue'; layer?: number }
  | { op: 'clear'; layer?: number; sceneId?: string }
  | { op: 'update'; layer?: number; sceneId?: string; values: Record<string, unknown> }
  | { op: 'trigger'; name: string }
  | { op: 'clock'; name: string; action: string; ms?: number }
  | { op: 'undo' }
  | { op: 'rundown.focus'; rundownId: string; move: 'next' | 'previous' }
  | { op: 'rundown.cue' | 'rundown.stop'; rundownId: string; itemId?: string }
  | { op: 'rundown.play_next'; rundownId: string }
  | { op: 'source.refresh'; sourceId: string }
  | { op: 'source.row'; sourceId: string; move: 'next' | 'previous' };

export async function runOp(socket: OnairSocket | null, rest: RestClient, channelId: string, op: Op): Promise<void> {
  if (socket?.isOpen) {
    try {
      await socket.send({ ...op, channelId });
      return;
    } catch (err) {
      if (!(err instanceof OpError) || err.code !== null || err.message !== 'not connected') throw err;
    }
  }
  const route = restRoute(op);
  await rest.request(route.method, `/v1/channels/${channelId}${route.path}`, route.body);
}

interface Route {
  method: 'POST' | 'PATCH';
  path: string;
  body?: unknown;
}

function restRoute(op: Op): Route {
  const { op: name, ...body } = op;
  const enc = encodeURIComponent;
  switch (op.op) {
    case 'patch':
      return { method: 'PATCH', path: '/inputs', body: op.inputs };
    case 'cue':
      return { method: 'POST', path: '/preview', body };
    case 'cut':
      return { method: 'POST', path: '/program', body };
    case 'trigger':
      return { method: 'POST', path: `/triggers/${enc(op.name)}`, body: {} };
    case 'clock':
      return { method: 'POST', path: `/clocks/${enc(op.name)}`, body: { action: op.action, ms: op.ms } };
    case 'rundown.focus':
      return { method: 'POST', path: `/rundowns/${enc(op.rundownId)}/focus`, body: { move: op.move } };
    case 'rundown.cue':
    case 'rundown.stop':
      return { method: 'POST', path: `/rundowns/${enc(op.rundownId)}/${op.op.slice(8)}`, body: itemOnly(op.itemId) };
    case 'rundown.play_next':
      return { method: 'POST', path: `/rundowns/${enc(op.rundownId)}/play-next` };
    case 'source.refresh':
      return { method: 'POST', path: `/sources/${enc(op.sourceId)}/refresh`, body: {} };
    case 'source.row':
      return { method: 'POST', path: `/sources/${enc(op.sourceId)}/row`, body: { move: op.move } };
    default:
      return { method: 'POST', path: `/${name}`, body };
  }
}

function itemOnly(itemId: string | undefined): { itemId?: string } {
  return itemId === undefined ? {} : { itemId };
}

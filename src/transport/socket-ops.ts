/**
 * Operations a client sends over the WebSocket (docs/api.md, "Real-time WebSocket"): the same engine calls, permissions
 * and validation as the REST routes, answered with `ack` or `error` carrying the client's id.
 */
import { z } from 'zod';
import { authorize, type Principal } from '../auth/permissions.js';
import { validatePatch, type Engine, type Op } from '../engine/index.js';
import { AppError } from '../errors.js';
import { admit } from '../limits/enforce.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { AckMessage, ClientMessage } from '../protocol/index.js';

const Id = z.string().min(1).max(100);
const ClientMessageSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('resync') }),
  z.strictObject({ op: z.literal('patch'), id: Id, inputs: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal('preview'), id: Id, sceneId: Id }),
  z.strictObject({ op: z.literal('program'), id: Id, sceneId: Id }),
  z.strictObject({ op: z.literal('take'), id: Id }),
  z.strictObject({ op: z.literal('clear'), id: Id }),
]);

/** Parses a text frame; throws invalid_request with the client's id when it can be read. */
export function parseClientMessage(text: string): ClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'Messages must be JSON text.');
  }
  const parsed = ClientMessageSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('invalid_request', `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`);
  }
  const msg = parsed.data as ClientMessage;
  // Keep the raw inputs object: a parsed copy would turn a "__proto__" key into a prototype, not a name.
  if (msg.op === 'patch') msg.inputs = (raw as { inputs: Record<string, never> }).inputs;
  return msg;
}

export async function runOp(
  msg: Exclude<ClientMessage, { op: 'resync' }>,
  principal: Principal,
  channelId: string,
  deps: { engine: Engine; limiter: RateLimiter },
): Promise<AckMessage> {
  const { engine } = deps;
  const record = engine.channelRecord(channelId);
  const permission = msg.op === 'patch' ? 'inputs:write' : 'playout:write';
  authorize(principal, permission, { orgId: record.orgId, channelId });
  // The same per-channel updates bucket as PATCH …/inputs and the playout routes.
  await admit(deps.limiter, 'updates', channelId);
  const result = await engine.submit(channelId, toOp(msg, engine, channelId));
  return { type: 'ack', id: msg.id, frame: result.frame };
}

function toOp(msg: Exclude<ClientMessage, { op: 'resync' }>, engine: Engine, channelId: string): Op {
  const source = 'api' as const;
  switch (msg.op) {
    case 'patch': {
      const names = Object.keys(msg.inputs);
      if (names.length === 0 || names.length > 100)
        throw new AppError('invalid_request', 'A patch carries 1 to 100 inputs.');
      return { kind: 'patch', values: validatePatch(engine.registry(channelId), msg.inputs), source };
    }
    case 'preview':
    case 'program':
      return { kind: msg.op, sceneId: msg.sceneId, source };
    case 'take':
    case 'clear':
      return { kind: msg.op, source };
  }
}

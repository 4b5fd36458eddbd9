/**
 * Operations a client sends over the WebSocket (docs/api.md, "Real-time WebSocket"): each op is the same
 * channel operation the REST route runs (../operations), so it gets the same checks and the same answer,
 * as an `ack` or an `error` carrying the client's id.
 */
import { z } from 'zod';
import type { Principal } from '../auth/permissions.js';
import { AppError } from '../errors.js';
import {
  addItem,
  callerOf,
  clear,
  clockAction,
  continueOnAir,
  createRundown,
  cue,
  cueRundownItem,
  cut,
  deleteItem,
  deleteRundown,
  duplicateItem,
  editItem,
  fireTrigger,
  focusRundown,
  patchInputs,
  moveSourceRow,
  playNext,
  redo,
  refreshSource,
  renameRundown,
  stopRundownItem,
  take,
  undo,
  update,
  type ChannelOperation,
  type Runner,
  type SourceView,
} from '../operations/index.js';
import type { AckMessage, ClockState, Rundown, RundownItem, SourceSummary } from '@onair/protocol';
import { validationError } from '../validation.js';
import { nulInJson } from '../nul-char.js';

/** The ops a client may send, by name; `preview` and `program` are the documented older names of cue and cut. */
const OPERATIONS = {
  patch: patchInputs,
  cue,
  cut,
  preview: cue,
  program: cut,
  take,
  clear,
  trigger: fireTrigger,
  clock: clockAction,
  update,
  continue: continueOnAir,
  undo,
  redo,
  'rundown.create': createRundown,
  'rundown.rename': renameRundown,
  'rundown.delete': deleteRundown,
  'rundown.item_add': addItem,
  'rundown.item_edit': editItem,
  'rundown.item_duplicate': duplicateItem,
  'rundown.item_delete': deleteItem,
  'rundown.focus': focusRundown,
  'rundown.cue': cueRundownItem,
  'rundown.play_next': playNext,
  'rundown.stop': stopRundownItem,
  'source.refresh': refreshSource,
  'source.row': moveSourceRow,
} as const;
type OpName = keyof typeof OPERATIONS;

const Envelope = z.object({
  op: z.enum(['resync', 'painted', ...(Object.keys(OPERATIONS) as OpName[])]),
  id: z.string().min(1).max(100).optional(),
  /** The channel the op is for: required on a connection following several channels. */
  channelId: z.string().min(1).max(100).optional(),
});

/** `painted`: an output page's report, read by the outputs (src/outputs/painted-report.ts), never answered. */
export type ParsedMessage =
  | { op: 'resync'; channelId?: string }
  | { op: 'painted'; input: unknown }
  | { op: OpName; id: string; input: unknown; channelId?: string };

/** A message that could not be read; `id` and `channelId` are the client's when the envelope had them. */
export class ClientMessageError extends Error {
  constructor(
    readonly id: string | null,
    readonly error: AppError,
    readonly channelId?: string,
  ) {
    super(error.message);
  }
}

/**
 * Reads the envelope (`op`, `id`); the rest of the message is the operation's input, checked by the
 * operation itself: `inputs` for a patch, the other fields for the other ops.
 */
export function parseClientMessage(text: string): ParsedMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ClientMessageError(null, new AppError('invalid_request', 'Messages must be JSON text.'));
  }
  const envelope = Envelope.safeParse(raw);
  const id = readableString(raw, 'id');
  // A refusal names the channel the op named, as the answer of an op that ran does.
  const sentChannel = readableString(raw, 'channelId') ?? undefined;
  const nul = nulInJson(text, raw);
  if (nul) throw new ClientMessageError(id, nul, sentChannel);
  if (!envelope.success) throw new ClientMessageError(id, validationError(envelope.error), sentChannel);
  const { op, channelId } = envelope.data;
  const named = channelId === undefined ? {} : { channelId };
  if (op === 'resync') return { op, ...named };
  if (op === 'painted') return { op, input: raw };
  if (id === null)
    throw new ClientMessageError(null, new AppError('invalid_request', 'id: required for this op'), channelId);
  const fields = { ...(raw as Record<string, unknown>) };
  delete fields.op;
  delete fields.id;
  delete fields.channelId;
  try {
    return { op, id, input: op === 'patch' ? patchInput(fields) : fields, ...named };
  } catch (err) {
    // The reply names the op it refuses, so a client waiting for its id hears about it.
    throw err instanceof AppError ? new ClientMessageError(id, err, channelId) : err;
  }
}

/** A patch's inputs exactly as sent; any other field is a mistake worth naming. */
function patchInput(fields: Record<string, unknown>): unknown {
  const extra = Object.keys(fields).filter((k) => k !== 'inputs');
  if (extra.length > 0) {
    throw new AppError('invalid_request', `${extra[0]}: unknown field`, {
      errors: extra.map((path) => ({ path, message: 'unknown field' })),
    });
  }
  return fields.inputs;
}

/** The message's `id` or `channelId` as the client sent it, when it is one (1–100 characters). */
function readableString(raw: unknown, field: 'id' | 'channelId'): string | null {
  const value = (raw as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : null;
}

export type OpMessage = Exclude<ParsedMessage, { op: 'resync' } | { op: 'painted' }>;

export async function runOp(
  msg: OpMessage,
  principal: Principal,
  channelId: string,
  runner: Runner,
): Promise<AckMessage> {
  const operation = OPERATIONS[msg.op] as ChannelOperation<unknown, OpAnswer>;
  const { body } = await runner.run(operation, callerOf(principal), { channelId, input: msg.input });
  return ackOf(msg.id, body, () => runner.services.engine.state(channelId).frame);
}

/** What the operations answer: a frame (bus ops), a clock, or the record a rundown or source op acted on (or nothing). */
type OpAnswer =
  | { frame?: number; clock?: ClockState }
  | (Rundown & { frame?: undefined })
  | RundownItem
  | (SourceView & { frame?: undefined })
  | null;

/** The ack of an op; one that answers with a record (a rundown, an item, a source) carries it, at the channel's frame. */
function ackOf(id: string, body: OpAnswer, frameNow: () => number): AckMessage {
  if (body === null) return { type: 'ack', id, frame: frameNow() };
  if ('intervalMs' in body) return { type: 'ack', id, frame: frameNow(), source: summaryOf(body) };
  if ('items' in body) return { type: 'ack', id, frame: frameNow(), rundown: body };
  if ('sceneId' in body && 'version' in body) return { type: 'ack', id, frame: frameNow(), item: body };
  const answer = body as { frame: number; clock?: ClockState };
  return answer.clock
    ? { type: 'ack', id, frame: answer.frame, clock: answer.clock }
    : { type: 'ack', id, frame: answer.frame };
}

/** A source as the `sources` message shows it (src/sources/source-feed.ts). */
function summaryOf(v: SourceView): SourceSummary {
  const { id, name, type, paused, row, status } = v;
  const cursor = row?.by === 'cursor' ? status.cursor : null;
  return {
    id,
    name,
    type,
    paused,
    state: status.state,
    lastError: status.lastError,
    lastChangeAt: status.lastChangeAt,
    cursor,
  };
}

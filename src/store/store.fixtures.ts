/**
 * Records as the engine and the API hand them to a store, for the contract suites (store, webhook and
 * incoming-hook stores) that every implementation runs.
 */
import type {
  ChannelChange,
  ChannelRecord,
  EngineEvent,
  FrameRate,
  HistoryRecord,
  SceneRecord,
} from '../engine/index.js';
import { newId } from '../ids.js';
import type {
  Actor,
  ClockState,
  InputValue,
  PreviewEntry,
  ProgramEntry,
  Rundown,
  SceneDefinition,
  ScheduledOp,
} from '@onair/protocol';
import type { ApiKeyRecord } from './store.js';
import type { NewDelivery, SubscriptionRecord } from './webhook-store.js';

export const ISO = '2024-03-01T12:00:00.000Z';
export const LATER = '2024-03-01T12:05:00.000Z';

export const STAMPS = { createdAt: ISO, updatedAt: ISO };

/** Who the fixtures' changes and saves are made by: an API key. */
export const KEY_ACTOR: Actor = { type: 'key', id: 'key_fixture', name: 'fixture key' };

/** A bus entry of a scene on its own (no rundown item, no values of its own). */
export function onBus(sceneId: string, layer: number): PreviewEntry;
export function onBus(sceneId: string, layer: number, since: string): ProgramEntry;
export function onBus(sceneId: string, layer: number, since?: string): PreviewEntry | ProgramEntry {
  const entry = { sceneId, layer, itemId: null, values: {} };
  return since === undefined ? entry : { ...entry, since };
}

export function channelRecord(orgId: string, name: string, fps: FrameRate = 60): ChannelRecord {
  return { id: newId('ch'), orgId, name, fps, width: 1920, height: 1080, outputToken: `tok_${name}`, ...STAMPS };
}

export function sceneRecord(channelId: string, name: string): SceneRecord {
  const definition: SceneDefinition = {
    version: 1,
    layer: 0,
    inputs: [{ name: 'score', type: 'number' as const, label: 'Score', default: 0 }],
    elements: [{ type: 'text', text: '{score} ünïcødé', fontSize: 40, x: 0, y: 0, width: 100, height: 50 }],
    transitions: { in: { type: 'fade', durationMs: 300 }, out: { type: 'cut', durationMs: 0 } },
    triggers: [{ name: 'in', animation: 'flash' }],
  };
  return { id: newId('sc'), channelId, name, definition, ...STAMPS };
}

export interface LiveChange {
  set?: Record<string, InputValue>;
  /** Clock states to write; null forgets the clock. */
  clocks?: Record<string, ClockState | null>;
  /** A bus that changed (the engine hands over a bus only then; the store keeps the stored one otherwise). */
  program?: ProgramEntry[];
  preview?: PreviewEntry[];
  events?: EngineEvent[];
  /** Rundowns created or changed, and the ids of deleted ones. */
  rundowns?: Rundown[];
  removedRundowns?: string[];
  /** The whole new schedule. */
  schedule?: ScheduledOp[];
  /** History entries added or replaced, and the ids of pruned ones. */
  history?: HistoryRecord[];
  removedHistory?: string[];
  frame: number;
  updatedAt?: string;
}

/** A ChannelChange as the engine hands it over: explicit values to persist plus the whole new live state. */
export function change(
  channel: { id: string; orgId: string },
  c: LiveChange,
  kept = new Map<string, InputValue>(),
): ChannelChange {
  const setValues = new Map(Object.entries(c.set ?? {}));
  const values = new Map(
    [...kept, ...setValues].filter((e): e is [string, string | number | boolean] => e[1] !== null),
  );
  const setClocks = new Map(Object.entries(c.clocks ?? {}));
  const clocks = new Map([...setClocks].filter((e): e is [string, ClockState] => e[1] !== null));
  const live = {
    values,
    clocks,
    program: c.program ?? [],
    preview: c.preview ?? [],
    rundowns: new Map(),
    schedule: [],
    history: [],
    frame: c.frame,
    updatedAt: c.updatedAt === undefined ? LATER : c.updatedAt,
  };
  const inputs = new Map(setValues);
  return {
    channelId: channel.id,
    orgId: channel.orgId,
    frame: c.frame,
    prev: 0,
    inputs,
    setValues,
    ...(c.clocks ? { setClocks } : {}),
    ...(c.program ? { program: c.program } : {}),
    ...(c.preview ? { preview: c.preview } : {}),
    ...showChange(c),
    live,
    events: c.events ?? [],
    acks: [],
  };
}

/** The prepared show's part of a change, as the engine hands it over (each field only when that part changed). */
function showChange(c: LiveChange): Partial<ChannelChange> {
  const out: Partial<ChannelChange> = {};
  if (c.rundowns) out.rundowns = new Map(c.rundowns.map((r) => [r.id, r]));
  if (c.removedRundowns) out.removedRundowns = new Set(c.removedRundowns);
  if (c.schedule) out.schedule = c.schedule;
  if (c.history) out.historyAdded = new Map(c.history.map((r) => [r.id, r]));
  if (c.removedHistory) out.historyRemoved = new Set(c.removedHistory);
  return out;
}

/** An event as the engine makes one, for `channel` at `createdAt`. */
export function event(
  channel: { id: string; orgId: string },
  type: EngineEvent['type'],
  createdAt = LATER,
  data: Record<string, unknown> = {},
): EngineEvent {
  return {
    id: newId('evt'),
    type,
    orgId: channel.orgId,
    channelId: channel.id,
    createdAt,
    data: { ...data, source: 'api', actor: KEY_ACTOR },
  };
}

export function keyRecord(orgId: string, hash: string, channelIds: string[] | null): ApiKeyRecord {
  return {
    id: newId('key'),
    orgId,
    name: `key ${hash}`,
    hash,
    prefix: 'onair_sk_ab',
    permissions: ['channels:read', 'inputs:write'],
    channelIds,
    createdAt: ISO,
    lastUsedAt: null,
    revokedAt: null,
  };
}

export function subscriptionRecord(orgId: string, over: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id: newId('wh'),
    orgId,
    url: 'https://hooks.example.com/in',
    events: [],
    channelId: null,
    description: null,
    sealedSecret: 'v1.sealed',
    previousSecret: null,
    status: 'enabled',
    consecutiveFailures: 0,
    lastError: null,
    disabledAt: null,
    createdAt: ISO,
    ...over,
  };
}

/** The delivery of event `e` to a subscription, due at `nextAt`. */
export function newDelivery(subscriptionId: string, e: EngineEvent, nextAt = 1000): NewDelivery {
  return { subscriptionId, eventId: e.id, type: e.type, eventCreatedAt: e.createdAt, body: `{"id":"${e.id}"}`, nextAt };
}

/** A rundown of one item (of scene `sceneId`), created at `createdAt`. */
export function rundownRecord(channelId: string, name: string, createdAt = ISO, sceneId = 'sc_x'): Rundown {
  return {
    id: newId('rd'),
    channelId,
    name,
    items: [
      {
        id: newId('it'),
        sceneId,
        values: { title: 'Ünïcødé — 日本語' },
        label: 'Opener',
        notes: '',
        durationMs: 5000,
        state: 'ready',
        version: 1,
      },
    ],
    focus: null,
    version: 1,
    createdAt,
    updatedAt: createdAt,
  };
}

/** A take scheduled at `frame` (its time a made-up one of that frame). */
export function scheduledOp(frame: number, createdAt = ISO): ScheduledOp {
  return { id: newId('sch'), at: LATER, frame, op: { kind: 'take', layer: 1 }, actor: KEY_ACTOR, createdAt };
}

/** A recorded cut of `sceneId` on layer 0, with what it touched before and after. */
export function historyRecord(frame: number, sceneId = 'sc_x'): HistoryRecord {
  return {
    id: `his_${newId('evt').slice(4)}`,
    kind: 'cut',
    actor: KEY_ACTOR,
    frame,
    at: LATER,
    before: { program: { 0: null }, preview: {}, values: { score: null } },
    after: { program: { 0: onBus(sceneId, 0, LATER) }, preview: {}, values: { score: 2 } },
  };
}

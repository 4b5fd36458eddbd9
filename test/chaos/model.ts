/**
 * What the crash suite writes and what it may expect back: the record of every write it sent (with its outcome),
 * a model of the channel's buses and clock that says what a write does, and the checks, as pure functions that
 * answer a list of problems (empty when all is well) so they can be tested on made-up histories
 * (checks.chaos.ts) as well as run on a real one (crash.chaos.ts).
 *
 * Every stream of writes (one kind of write on one channel) is sequential: the next write is sent only once the
 * previous one was answered. So at any moment at most one write of a stream is in flight, and the order in which
 * a stream's writes were sent is the order in which they can have been applied.
 *
 * - `acked`: a 2xx answer arrived. The server promised the change is durable.
 * - `refused`: a 4xx answer arrived (429 rate limited, say). The change did nothing.
 * - `uncertain`: no answer (the process died), or a 5xx. The change may or may not have been applied; a stream
 *   stops at its first uncertain write until the next restart, so an uncertain write is always a stream's last
 *   write before a restart.
 */
import { isDeepStrictEqual } from 'node:util';

export type Outcome = 'acked' | 'refused' | 'uncertain';
export type Scalar = number | string | boolean | null;

export interface ClockState {
  running: boolean;
  ms: number;
  at: number;
}

/** Layer → scene id, for program and preview. */
export interface Buses {
  program: Record<number, string>;
  preview: Record<number, string>;
}

export type PlayoutOp =
  | { kind: 'preview'; sceneId: string; layer: number }
  | { kind: 'program'; sceneId: string; layer: number }
  | { kind: 'take' }
  | { kind: 'clear'; layer?: number };

export type ClockOp = { action: 'start' | 'stop' } | { action: 'set' | 'adjust'; ms: number };

interface RecordBase {
  channelId: string;
  /** The server run (0 = before the first kill) it was sent to. */
  epoch: number;
  outcome: Outcome;
  /** The HTTP status, or null when no answer arrived. */
  status: number | null;
}

/** A write of plain inputs: `patch` (PATCH …/inputs: scoreA, sometimes home) or `hook` (an incoming-hook post:
 * scoreB and period). Each carries a counter `n` unique in its stream and growing with each write sent. */
export interface ValuesRecord extends RecordBase {
  stream: 'patch' | 'hook';
  n: number;
  values: Record<string, Scalar>;
  /** The stream's inputs as they were known when it was sent. */
  before: Record<string, Scalar>;
}

export interface ClockRecord extends RecordBase {
  stream: 'clock';
  op: ClockOp;
  before: ClockState;
  /** The clock in the 2xx answer. */
  answer?: ClockState;
}

export interface PlayoutRecord extends RecordBase {
  stream: 'playout';
  op: PlayoutOp;
  before: Buses;
  /** The buses in the 2xx answer (a State). */
  answer?: Buses;
}

export type WriteRecord = ValuesRecord | ClockRecord | PlayoutRecord;
export type StreamName = WriteRecord['stream'];

/** The inputs each values stream owns (no other stream writes them). */
export const STREAM_INPUTS = { patch: ['scoreA', 'home'], hook: ['scoreB', 'period'] } as const;
export const CLOCK = 'gameClock';

/** The part of a channel's State the suite looks at. */
export interface Observed {
  inputs: Record<string, Scalar>;
  clock: ClockState;
  buses: Buses;
}

export interface StateLike {
  program: { sceneId: string; layer: number }[];
  preview: { sceneId: string; layer: number }[];
  inputs: Record<string, unknown>;
  clocks: Record<string, ClockState>;
}

export function observe(state: StateLike): Observed {
  return { inputs: state.inputs as Record<string, Scalar>, clock: state.clocks[CLOCK]!, buses: busesOf(state) };
}

export function busesOf(state: Pick<StateLike, 'program' | 'preview'>): Buses {
  const buses: Buses = { program: {}, preview: {} };
  for (const e of state.program) buses.program[e.layer] = e.sceneId;
  for (const e of state.preview) buses.preview[e.layer] = e.sceneId;
  return buses;
}

export function pick(inputs: Record<string, Scalar>, names: readonly string[]): Record<string, Scalar> {
  return Object.fromEntries(names.map((n) => [n, inputs[n] ?? null]));
}

// ---------------------------------------------------------------------------------------------------- the model

/** The buses after a playout op (docs/api.md, "Playout"). */
export function applyPlayout(op: PlayoutOp, b: Buses): Buses {
  const program = { ...b.program };
  const preview = { ...b.preview };
  switch (op.kind) {
    case 'preview':
      preview[op.layer] = op.sceneId;
      break;
    case 'program':
      program[op.layer] = op.sceneId;
      break;
    case 'take':
      for (const [layer, sceneId] of Object.entries(preview)) program[Number(layer)] = sceneId;
      for (const layer of Object.keys(preview)) delete preview[Number(layer)];
      break;
    case 'clear':
      for (const layer of Object.keys(program))
        if (op.layer === undefined || Number(layer) === op.layer) delete program[Number(layer)];
      break;
  }
  return { program, preview };
}

/** The events a playout op fires from `b` (docs/api.md, "Events"), without `source`, `actor` and a null `itemId`. */
export function playoutEvents(op: PlayoutOp, b: Buses): { type: string; data: Record<string, unknown> }[] {
  const toAir = (sceneId: string, layer: number) => [
    { type: 'channel.scene_loaded', data: { sceneId, bus: 'program', layer } },
    { type: 'channel.played', data: { sceneId, previousSceneId: b.program[layer] ?? null, layer } },
  ];
  switch (op.kind) {
    case 'preview':
      return b.preview[op.layer] === op.sceneId
        ? []
        : [{ type: 'channel.scene_loaded', data: { sceneId: op.sceneId, bus: 'preview', layer: op.layer } }];
    case 'program':
      return toAir(op.sceneId, op.layer);
    case 'take':
      return Object.entries(b.preview).flatMap(([layer, sceneId]) => toAir(sceneId, Number(layer)));
    case 'clear':
      return Object.entries(b.program)
        .filter(([layer]) => op.layer === undefined || Number(layer) === op.layer)
        .map(([layer, sceneId]) => ({ type: 'channel.cleared', data: { sceneId, layer: Number(layer) } }));
  }
}

/** The game clock counts down and stops at 0 (the scoreboard template). */
export function clockTimeAt(c: ClockState, now: number): number {
  return c.running ? Math.max(0, c.ms - Math.max(0, now - c.at)) : c.ms;
}

/**
 * Whether `after` is what `op` makes of `before` at some moment `after.at` not earlier than `before.at`
 * (docs/api.md, "Clocks"). The moment is unknown for an unanswered op, so it is read from `after.at`.
 */
export function clockOpExplains(op: ClockOp, before: ClockState, after: ClockState): boolean {
  if (after.at < before.at) return false;
  const now = after.at;
  const shown = clockTimeAt(before, now);
  switch (op.action) {
    case 'start':
      return !before.running && after.running && after.ms === before.ms;
    case 'stop':
      return before.running && !after.running && after.ms === shown;
    case 'set':
      return after.running === before.running && after.ms === op.ms;
    case 'adjust':
      return after.running === before.running && after.ms === Math.max(0, shown + op.ms);
  }
}

// ------------------------------------------------------------------------------------------ survival of a kill

/**
 * After a restart: each stream of each channel shows the result of its last acknowledged write (or what it showed
 * when the run began), or, when its last write was uncertain, possibly that write applied instead — whole (a patch
 * is all or nothing). For the counters this means: scoreA (and the other counters) equals the last acknowledged
 * value, or the one value sent after it whose answer never came — never less, never a value that was not sent.
 *
 * `start` is what the channel showed when the epoch began; `records` this epoch's writes of that channel.
 */
export function checkSurvival(channelId: string, start: Observed, records: WriteRecord[], now: Observed): string[] {
  const problems: string[] = [];
  const last = <S extends StreamName>(stream: S) =>
    records.filter((r): r is Extract<WriteRecord, { stream: S }> => r.stream === stream).at(-1);

  for (const stream of ['patch', 'hook'] as const) {
    const names = STREAM_INPUTS[stream];
    const r = last(stream);
    const got = pick(now.inputs, names);
    const known = r ? (r.outcome === 'acked' ? { ...r.before, ...r.values } : r.before) : pick(start.inputs, names);
    const allowed = [known];
    if (r?.outcome === 'uncertain') allowed.push({ ...r.before, ...r.values });
    if (!allowed.some((a) => isDeepStrictEqual(a, got))) {
      problems.push(
        `${channelId} ${stream}: after the restart ${json(got)}, but the last acknowledged write left ${json(known)}` +
          (r?.outcome === 'uncertain' ? ` (and the one in flight would give ${json(allowed[1])})` : '') +
          (r ? ` [last write: ${r.outcome}, status ${r.status}]` : ''),
      );
    }
  }

  const c = last('clock');
  const knownClock = c ? (c.outcome === 'acked' ? c.answer! : c.before) : start.clock;
  if (
    !isDeepStrictEqual(now.clock, knownClock) &&
    !(c?.outcome === 'uncertain' && clockOpExplains(c.op, c.before, now.clock))
  ) {
    problems.push(
      `${channelId} clock: after the restart ${json(now.clock)}, but the last acknowledged op left ${json(knownClock)}` +
        (c ? ` [last op ${json(c.op)}: ${c.outcome}, status ${c.status}]` : ''),
    );
  }

  const p = last('playout');
  const knownBuses = p ? (p.outcome === 'acked' ? p.answer! : p.before) : start.buses;
  const allowedBuses = [knownBuses];
  if (p?.outcome === 'uncertain') allowedBuses.push(applyPlayout(p.op, p.before));
  if (!allowedBuses.some((b) => isDeepStrictEqual(b, now.buses))) {
    problems.push(
      `${channelId} playout: after the restart ${json(now.buses)}, but the last acknowledged op left ` +
        `${json(knownBuses)}` +
        (p ? ` [last op ${json(p.op)}: ${p.outcome}, status ${p.status}]` : ''),
    );
  }
  return problems;
}

/** An acknowledged answer must be what the model says the write does (or the model, and the checks, are wrong). */
export function checkAnswer(r: WriteRecord): string[] {
  if (r.outcome !== 'acked') return [];
  if (r.stream === 'playout' && !isDeepStrictEqual(r.answer, applyPlayout(r.op, r.before))) {
    return [`${r.channelId} playout ${json(r.op)} from ${json(r.before)} answered ${json(r.answer)}`];
  }
  if (r.stream === 'clock' && !clockOpExplains(r.op, r.before, r.answer!)) {
    return [`${r.channelId} clock ${json(r.op)} from ${json(r.before)} answered ${json(r.answer)}`];
  }
  return [];
}

// ----------------------------------------------------------------------------------------------- the event log

export interface EventLike {
  id: string;
  type: string;
  orgId?: string;
  channelId: string | null;
  createdAt: string;
  data: Record<string, unknown>;
}

const SOURCE = { patch: 'api', hook: 'incoming_webhook', clock: 'api', playout: 'api' } as const;
const PLAYOUT_TYPES = new Set(['channel.played', 'channel.scene_loaded', 'channel.cleared']);

/**
 * GET /v1/events against the writes (docs/api.md, "Events": written in the same transaction as the change):
 * - every acknowledged write has its event(s), with the values it wrote, in the order the writes were sent;
 * - every event of a stream belongs to a write that was sent and was acknowledged or uncertain (never to a
 *   refused one, never to nothing), and no write has two.
 * `events` is the whole log, oldest first.
 */
export function checkEvents(records: WriteRecord[], events: EventLike[]): string[] {
  const problems: string[] = [];
  const channels = [...new Set(records.map((r) => r.channelId))];
  for (const channelId of channels) {
    const mine = events.filter((e) => e.channelId === channelId);
    const of = <S extends StreamName>(stream: S) =>
      records.filter((r): r is Extract<WriteRecord, { stream: S }> => r.channelId === channelId && r.stream === stream);
    for (const stream of ['patch', 'hook'] as const) {
      problems.push(...checkValueEvents(channelId, stream, of(stream), mine));
    }
    problems.push(...checkClockEvents(channelId, of('clock'), mine));
    problems.push(...checkPlayoutEvents(channelId, of('playout'), mine));
  }
  return problems;
}

function checkValueEvents(channelId: string, stream: 'patch' | 'hook', records: ValuesRecord[], mine: EventLike[]) {
  const problems: string[] = [];
  const key = STREAM_INPUTS[stream][0];
  const byValue = new Map(records.map((r) => [r.values[key], r]));
  const logged = mine.filter(
    (e) => e.type === 'channel.bind_updated' && key in ((e.data.inputs as Record<string, unknown>) ?? {}),
  );
  const seen = new Set<ValuesRecord>();
  let lastN = -Infinity;
  for (const e of logged) {
    const inputs = e.data.inputs as Record<string, Scalar>;
    const r = byValue.get(inputs[key]);
    if (!r) {
      problems.push(`${channelId} ${stream}: event ${e.id} sets ${json(inputs)}, a value never sent`);
      continue;
    }
    if (seen.has(r)) problems.push(`${channelId} ${stream}: write #${r.n} ${json(r.values)} has two events`);
    seen.add(r);
    if (r.outcome === 'refused') {
      problems.push(`${channelId} ${stream}: event ${e.id} applies write #${r.n}, which was refused (${r.status})`);
    }
    // The event carries the inputs the write changed, with the values it wrote (an input set to the value it
    // already showed, period = 1 at first, may be left out).
    if (!Object.entries(inputs).every(([name, value]) => name in r.values && r.values[name] === value)) {
      problems.push(
        `${channelId} ${stream}: event ${e.id} carries ${json(inputs)}, write #${r.n} sent ${json(r.values)}`,
      );
    }
    if (e.data.source !== SOURCE[stream]) {
      problems.push(`${channelId} ${stream}: event ${e.id} has source ${json(e.data.source)}`);
    }
    if (r.n <= lastN) problems.push(`${channelId} ${stream}: event ${e.id} (write #${r.n}) logged after #${lastN}`);
    lastN = Math.max(lastN, r.n);
  }
  for (const r of records) {
    if (r.outcome === 'acked' && !seen.has(r)) {
      problems.push(`${channelId} ${stream}: acknowledged write #${r.n} ${json(r.values)} has no event`);
    }
  }
  return problems;
}

function checkClockEvents(channelId: string, records: ClockRecord[], mine: EventLike[]): string[] {
  const problems: string[] = [];
  const logged = mine.filter(
    (e) => e.type === 'channel.bind_updated' && CLOCK in ((e.data.inputs as Record<string, unknown>) ?? {}),
  );
  const used = new Set<number>();
  let from = 0;
  for (const r of records) {
    if (r.outcome !== 'acked') continue;
    const i = logged.findIndex(
      (e, i) => i >= from && isDeepStrictEqual((e.data.inputs as Record<string, unknown>)[CLOCK], r.answer),
    );
    if (i < 0) {
      problems.push(`${channelId} clock: acknowledged ${json(r.op)} → ${json(r.answer)} has no event (in order)`);
      continue;
    }
    const previous = (logged[i]!.data.previous as Record<string, unknown> | undefined)?.[CLOCK];
    if (!isDeepStrictEqual(previous, r.before)) {
      problems.push(`${channelId} clock: event ${logged[i]!.id} has previous ${json(previous)}, not ${json(r.before)}`);
    }
    used.add(i);
    from = i + 1;
  }
  const uncertain = records.filter((r) => r.outcome === 'uncertain');
  logged.forEach((e, i) => {
    if (e.data.source !== 'api') problems.push(`${channelId} clock: event ${e.id} has source ${json(e.data.source)}`);
    if (used.has(i)) return;
    const after = (e.data.inputs as Record<string, ClockState>)[CLOCK]!;
    // Not an acknowledged op's: then an uncertain op's, from the state it was sent against.
    const owner = uncertain.find((r) => clockOpExplains(r.op, r.before, after));
    if (!owner) problems.push(`${channelId} clock: event ${e.id} ${json(after)} matches no op that was sent`);
    else uncertain.splice(uncertain.indexOf(owner), 1);
  });
  return problems;
}

function checkPlayoutEvents(channelId: string, records: PlayoutRecord[], mine: EventLike[]): string[] {
  const problems: string[] = [];
  const logged = mine.filter((e) => PLAYOUT_TYPES.has(e.type));
  const shape = (e: EventLike) => {
    // Who did it (the suite's key) and the rundown item (none: scenes are cued by id) are not what is checked here.
    const data = { ...e.data };
    delete data.source;
    delete data.actor;
    if (data.itemId === null) delete data.itemId;
    return { type: e.type, data };
  };
  const used = new Set<number>();
  let from = 0;
  for (const r of records) {
    if (r.outcome !== 'acked') continue;
    const expected = playoutEvents(r.op, r.before);
    let furthest = from - 1;
    for (const x of expected) {
      const i = logged.findIndex((e, i) => i >= from && !used.has(i) && isDeepStrictEqual(shape(e), x));
      if (i < 0) {
        problems.push(`${channelId} playout: acknowledged ${json(r.op)} has no ${json(x)} event (in order)`);
        continue;
      }
      used.add(i);
      furthest = Math.max(furthest, i);
    }
    from = furthest + 1;
  }
  // What no acknowledged op explains must be an uncertain op's events.
  const spare = records.filter((r) => r.outcome === 'uncertain').flatMap((r) => playoutEvents(r.op, r.before));
  logged.forEach((e, i) => {
    if (e.data.source !== 'api') problems.push(`${channelId} playout: event ${e.id} has source ${json(e.data.source)}`);
    if (used.has(i)) return;
    const j = spare.findIndex((x) => isDeepStrictEqual(shape(e), x));
    if (j < 0) problems.push(`${channelId} playout: event ${e.id} ${json(shape(e))} matches no op that was sent`);
    else spare.splice(j, 1);
  });
  return problems;
}

// ------------------------------------------------------------------------------------------ webhook deliveries

export interface ArrivalLike {
  deliveryId: string;
  json: Record<string, unknown> | null;
  /** The receiver's answer. */
  status: number;
  /** null when the signature checks out. */
  signatureProblem: string | null;
}

export interface DeliveryLogEntry {
  eventId: string;
  outcome: string;
}

export interface DeliverySummary {
  events: number;
  arrivals: number;
  /** Events whose id arrived more than once with a 2xx answer (allowed: at least once). */
  redelivered: number;
  dropped: number;
  failedAttempts: number;
}

/**
 * The receiver's arrivals against the event log and the subscription's delivery log (docs/webhooks.md):
 * - every arrival is a committed event, under its own id (X-Service-Delivery = body id), with the very envelope
 *   the log shows, correctly signed;
 * - every committed event was accepted by the receiver, or is logged `dropped`;
 * - no event arrives under two ids: the same content (everything but the id) under more distinct ids than the
 *   log holds events with that content would be one change sent twice as two events.
 */
export function checkDeliveries(
  events: EventLike[],
  arrivals: ArrivalLike[],
  log: DeliveryLogEntry[],
): { problems: string[]; summary: DeliverySummary } {
  const problems: string[] = [];
  const byId = new Map(events.map((e) => [e.id, e]));
  const contentCount = new Map<string, number>();
  for (const e of events) contentCount.set(content(e), (contentCount.get(content(e)) ?? 0) + 1);
  const idsByContent = new Map<string, Set<string>>();
  const accepted = new Map<string, number>();
  for (const a of arrivals) {
    const body = a.json;
    if (!body || typeof body.id !== 'string') {
      problems.push(`delivery ${a.deliveryId}: the body is not an event`);
      continue;
    }
    if (body.type === 'webhook.ping') continue;
    if (body.id !== a.deliveryId) problems.push(`delivery ${a.deliveryId} carries event ${String(body.id)}`);
    if (a.signatureProblem) problems.push(`delivery ${a.deliveryId}: ${a.signatureProblem}`);
    const committed = byId.get(body.id);
    if (!committed) problems.push(`delivery ${a.deliveryId}: event ${body.id} is not in the event log`);
    else if (!isDeepStrictEqual(body, committed)) {
      problems.push(`delivery ${a.deliveryId}: body ${json(body)} differs from the log's ${json(committed)}`);
    }
    const key = content(body as unknown as EventLike);
    const ids = idsByContent.get(key) ?? new Set<string>();
    ids.add(a.deliveryId);
    idsByContent.set(key, ids);
    if (a.status < 300) accepted.set(a.deliveryId, (accepted.get(a.deliveryId) ?? 0) + 1);
  }
  for (const [key, ids] of idsByContent) {
    if (ids.size > (contentCount.get(key) ?? 0)) {
      problems.push(`one change delivered under ${ids.size} ids (${[...ids].join(', ')}): ${key}`);
    }
  }
  const dropped = new Set(log.filter((l) => l.outcome === 'dropped').map((l) => l.eventId));
  const missing = events.filter((e) => !accepted.has(e.id) && !dropped.has(e.id));
  for (const e of missing.slice(0, 20)) {
    const attempts = log.filter((l) => l.eventId === e.id).map((l) => l.outcome);
    problems.push(
      `event ${e.id} (${e.type}, ${e.createdAt}) was neither delivered nor dropped; log: ${json(attempts)}`,
    );
  }
  if (missing.length > 20) problems.push(`… and ${missing.length - 20} more events neither delivered nor dropped`);
  return {
    problems,
    summary: {
      events: events.length,
      arrivals: arrivals.length,
      redelivered: [...accepted.values()].filter((n) => n > 1).length,
      dropped: dropped.size,
      failedAttempts: log.filter((l) => l.outcome === 'failed').length,
    },
  };
}

/** The uncertain PATCHes and hook posts that the event log shows applied (committed, answer lost). */
export function uncertainApplied(records: WriteRecord[], events: EventLike[]): { uncertain: number; applied: number } {
  const uncertain = records.filter(
    (r): r is ValuesRecord => r.outcome === 'uncertain' && r.stream !== 'clock' && r.stream !== 'playout',
  );
  const applied = uncertain.filter((r) => {
    const key = STREAM_INPUTS[r.stream][0];
    return events.some(
      (e) =>
        e.channelId === r.channelId &&
        e.type === 'channel.bind_updated' &&
        (e.data.inputs as Record<string, unknown>)[key] === r.values[key],
    );
  });
  return { uncertain: uncertain.length, applied: applied.length };
}

/** An event without its id, keys sorted: equal for two envelopes of one change. */
export function content(e: EventLike): string {
  const rest: Partial<EventLike> = { ...e };
  delete rest.id;
  return canonical(rest);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function json(v: unknown): string {
  return JSON.stringify(v);
}

/**
 * Every WebSocket message, fuzzed (docs/api.md, "Real-time WebSocket"). A controller connected
 * with a `*` key to /v1/ws?channel=<id> sends arbitrary text frames, arbitrary JSON, every op name (and some that are
 * not) with hostile payloads and ids, binary frames, text frames that are not UTF-8, frames over 64 KiB and JSON
 * nested thousands deep. Each message must be answered by exactly what the protocol promises — an `ack`, an `error`
 * with a catalogued code and a string detail (id echoed when the message had a usable one, else null), a `snapshot`
 * for `resync` — or the connection closed with a documented code: 4000–4199 (4029 is the new "too many bad
 * messages"), 1008 or 1009. Meanwhile a separate, well-behaved renderer on the same channel keeps its connection and
 * keeps receiving frames, and GET /healthz stays 200.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RenderClient, wsUrl } from '../helpers/ws-client.js';
import {
  hostileJson,
  hugeString,
  invalidUtf8,
  nastyNumber,
  nastyString,
  obj,
  PROTO_KEYS,
  serialize,
  type J,
} from './arbitraries.js';
import {
  assertProperty,
  CATALOGUE,
  fail,
  HANG_MS,
  healthStatus,
  leaksIn,
  runs,
  Tally,
  UncaughtErrors,
  uncaughtViolations,
  workspaces,
} from './kit.js';
import { startWorld, type World } from './world.js';

const WORKSPACES = workspaces(3);
/** How long a message may wait for its answer (the server shares this process and a busy machine). */
const REPLY_MS = HANG_MS;
/** Ops per second sent to one channel: under its 30 updates a second, so that most ops get past the bucket. */
const OPS_PER_SECOND = 25;

let world: World;
let uncaught: UncaughtErrors;
let inputs: { name: string; type: string }[];
const tally = new Tally();
const closeCodes = new Map<number, number>();

beforeAll(async () => {
  world = await startWorld(WORKSPACES);
  uncaught = new UncaughtErrors();
  const ws = world.workspaces[0]!;
  const scene = await ws.call<{ inputs: { name: string; type: string }[] }>(
    'GET',
    `/v1/channels/${ws.channelId}/scenes/${ws.sceneId}`,
  );
  inputs = scene.body.inputs;
}, 120_000);

afterAll(async () => {
  const codes = [...closeCodes].map(([code, n]) => `${code}×${n}`).join(', ') || 'none';
  tally.note(`close codes seen: ${codes}`);
  console.log(tally.summary('WebSocket: message kind → reply'));
  for (const c of controllers.values()) c.socket.terminate();
  uncaught?.dispose();
  await world?.dispose();
});

// ---------------------------------------------------------------------------------------------------------------
// A bare controller connection: raw frames out, every message and the close recorded.

interface Message {
  type: string;
  id?: unknown;
  code?: unknown;
  detail?: unknown;
  frame?: unknown;
}

class Controller {
  readonly messages: Message[] = [];
  readonly raw: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private wake: (() => void) | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const text = data.toString('utf8');
      this.raw.push(isBinary ? `(binary) ${text}` : text);
      try {
        this.messages.push(JSON.parse(text) as Message);
      } catch {
        this.messages.push({ type: '(not JSON)', detail: text.slice(0, 200) });
      }
      this.wake?.();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake?.();
    });
  }

  static open(channelId: string, key: string): Promise<Controller> {
    const socket = new WebSocket(wsUrl(world.server.url, channelId), {
      headers: { authorization: `Bearer ${key}` },
    });
    const c = new Controller(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(c));
      socket.once('unexpected-response', (_req, res) => {
        const retryAfter = Number(res.headers['retry-after'] ?? 0);
        reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, retryAfter }));
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  /** Waits until `check` finds something among the messages from `since` on, the socket closes, or time runs out. */
  async until<T>(since: number, check: (m: Message) => T | undefined, ms: number): Promise<T | 'closed' | 'timeout'> {
    const deadline = performance.now() + ms;
    for (;;) {
      for (const m of this.messages.slice(since)) {
        const found = check(m);
        if (found !== undefined) return found;
      }
      if (this.closed) return 'closed';
      const left = deadline - performance.now();
      if (left <= 0) return 'timeout';
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}

/** One open controller per workspace channel, reopened after the server closes it. */
const controllers = new Map<number, Controller>();

async function controllerFor(i: number): Promise<Controller> {
  const open = controllers.get(i);
  if (open && !open.closed) return open;
  const ws = world.workspaces[i]!;
  let c: Controller;
  for (;;) {
    try {
      c = await Controller.open(ws.channelId, ws.key);
      break;
    } catch (err) {
      // Reconnecting after every refused frame runs into the documented upgrade limit (100 per 10 s per
      // address): a 429 with Retry-After, which a client waits out.
      const { status, retryAfter } = err as { status?: number; retryAfter?: number };
      if (status !== 429) throw err;
      tally.note('an upgrade was refused with 429 (upgrades per address); waited out');
      await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, retryAfter ?? 1)) * 1000));
    }
  }
  // The first message is the snapshot: wait for it, so it is never taken for a reply.
  const first = await c.until(0, (m) => (m.type === 'snapshot' ? m : undefined), REPLY_MS);
  if (first === 'timeout' || first === 'closed') throw new Error(`no snapshot on connect (${first})`);
  controllers.set(i, c);
  return c;
}

const lastSends = new Map<number, number[]>();

/** Keeps each channel under OPS_PER_SECOND. */
async function pace(i: number): Promise<void> {
  const times = (lastSends.get(i) ?? []).filter((t) => t > performance.now() - 1_000);
  if (times.length >= OPS_PER_SECOND) await new Promise((r) => setTimeout(r, times[0]! + 1_000 - performance.now()));
  times.push(performance.now());
  lastSends.set(i, times);
}

// ---------------------------------------------------------------------------------------------------------------
// Messages.

const OPS = ['patch', 'preview', 'program', 'take', 'clear', 'trigger', 'clock', 'resync'] as const;

type Frame =
  | { kind: 'text'; text: string }
  | { kind: 'json'; value: J }
  | { kind: 'op'; op: string; id: J | undefined; fields: [string, J][] }
  | { kind: 'binary'; bytes: number[] }
  | { kind: 'binary op'; value: J }
  | { kind: 'not UTF-8'; bytes: number[] }
  | { kind: 'over 64 KiB'; bytes: number }
  | { kind: 'deep'; depth: number };

function opFrame(): fc.Arbitrary<Frame> {
  const names = inputs.map((i) => i.name);
  const value: fc.Arbitrary<J> = fc.oneof(
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    hugeString,
    hostileJson(names),
  );
  const patchInputs: fc.Arbitrary<J> = fc.oneof(
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.constantFrom(...PROTO_KEYS), nastyString), value), {
        maxLength: 4,
      })
      .map(obj),
    value,
  );
  const sceneId = fc.oneof(fc.constantFrom(...world.workspaces.map((w) => w.sceneId)), nastyString, nastyNumber);
  const field: fc.Arbitrary<[string, J]> = fc.oneof(
    fc.tuple(fc.constant('inputs'), patchInputs),
    fc.tuple(fc.constant('sceneId'), sceneId),
    fc.tuple(fc.constant('layer'), fc.oneof(fc.integer({ min: -1, max: 100 }), value)),
    fc.tuple(fc.constant('name'), fc.oneof(fc.constantFrom('gameClock', 'flashScoreA', 'flashScoreB', 'nope'), value)),
    fc.tuple(
      fc.constant('action'),
      fc.oneof(fc.constantFrom('start', 'stop', 'set', 'reset', 'adjust', 'explode'), value),
    ),
    fc.tuple(fc.constant('ms'), fc.oneof(fc.integer({ min: -90_000_000, max: 400_000_000 }), value)),
    fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyString), value),
  );
  return fc.record({
    kind: fc.constant('op' as const),
    op: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom<string>(...OPS) },
      { weight: 1, arbitrary: fc.constantFrom('PATCH', 'ack', 'snapshot', '__proto__', '') },
    ),
    id: fc.oneof(
      { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((s): J => `f-${s}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom<J>('', '«a×101»', '«a×100»', 7, null, true, obj([])) },
    ),
    fields: fc.array(field, { maxLength: 4 }),
  });
}

/** Frames the server reads: each gets an answer. Deep JSON stays under the 64 KiB message limit (6 bytes a level). */
function readableFrame(): fc.Arbitrary<Frame> {
  return fc.oneof(
    { weight: 10, arbitrary: opFrame() },
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((text): Frame => ({ kind: 'text', text })),
    },
    {
      weight: 2,
      arbitrary: hostileJson(['op', 'id', 'inputs', 'sceneId', 'layer', 'name', 'action', 'ms']).map(
        (value): Frame => ({ kind: 'json', value }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 })
        .map((bytes): Frame => ({ kind: 'binary', bytes })),
    },
    { weight: 1, arbitrary: opFrame().map((f): Frame => ({ kind: 'binary op', value: opValue(f) })) },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 10_000 }).map((depth): Frame => ({ kind: 'deep', depth })) },
  );
}

/** Frames the transport refuses before the server reads them: over 64 KiB, or text that is not UTF-8. */
function refusedFrame(): fc.Arbitrary<Frame> {
  return fc.oneof(
    invalidUtf8.map((bytes): Frame => ({ kind: 'not UTF-8', bytes })),
    fc.integer({ min: 64 * 1024 + 1, max: 80_000 }).map((bytes): Frame => ({ kind: 'over 64 KiB', bytes })),
    fc.integer({ min: 11_000, max: 30_000 }).map((depth): Frame => ({ kind: 'deep', depth })),
  );
}

function opValue(f: Frame): J {
  if (f.kind !== 'op') return null;
  return obj([['op', f.op], ...(f.id === undefined ? [] : [['id', f.id] as [string, J]]), ...f.fields]);
}

/** The frame's payload and whether it goes as binary. */
function encode(f: Frame): { data: Buffer; binary: boolean } {
  switch (f.kind) {
    case 'text':
      return { data: Buffer.from(f.text), binary: false };
    case 'json':
      return { data: Buffer.from(serialize(f.value)), binary: false };
    case 'op':
      return { data: Buffer.from(serialize(opValue(f))), binary: false };
    case 'binary':
      return { data: Buffer.from(f.bytes), binary: true };
    case 'binary op':
      return { data: Buffer.from(serialize(f.value)), binary: true };
    case 'not UTF-8':
      return { data: Buffer.from(f.bytes), binary: false };
    case 'over 64 KiB':
      return {
        data: Buffer.from(`{"op":"patch","id":"big","inputs":{"home":"${'x'.repeat(f.bytes)}"}}`),
        binary: false,
      };
    case 'deep':
      return {
        data: Buffer.from(`{"op":"patch","id":"deep","inputs":${'{"a":'.repeat(f.depth)}1${'}'.repeat(f.depth)}}`),
        binary: false,
      };
  }
}

/** The id the server should echo: the message's `id` when it is JSON with a string id of 1–100 characters. */
function usableId(data: Buffer): string | null {
  try {
    const id = (JSON.parse(data.toString('utf8')) as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id.length >= 1 && id.length <= 100 ? id : null;
  } catch {
    return null;
  }
}

function isResync(data: Buffer): boolean {
  try {
    const parsed = JSON.parse(data.toString('utf8')) as { op?: unknown; id?: unknown } | null;
    return parsed?.op === 'resync' && (parsed.id === undefined || usableId(data) !== null);
  } catch {
    return false;
  }
}

/**
 * Close codes a client may see: the rows of docs/api.md's "Close codes" table, the ranges it defines (4000–4099 and
 * 4100–4199, where new codes such as "too many bad messages" land), 1008 (policy violation) and 1009 (message too
 * big, for a message over the documented 64 KiB).
 */
const DOCUMENTED_CLOSE_CODES: ReadonlySet<number> = (() => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const section = doc.split(/^### /m).find((s) => /^Close codes\b/.test(s)) ?? '';
  return new Set([...section.matchAll(/^\|\s*(\d{4})\s*\|/gm)].map((m) => Number(m[1])).concat([1008, 1009]));
})();

function documentedClose(code: number): boolean {
  return (code >= 4000 && code < 4200) || DOCUMENTED_CLOSE_CODES.has(code);
}

function describe(f: Frame, data: Buffer): string {
  const text = data.toString('latin1');
  return `${f.kind} frame${encode(f).binary ? ' (binary)' : ''}: ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}… (${text.length} bytes)` : text)}`;
}

// ---------------------------------------------------------------------------------------------------------------

/** The renderer that must keep following its channel while controllers misbehave, and the check that it does. */
async function healthyRenderer() {
  const ws0 = world.workspaces[0]!;
  const renderer = await RenderClient.connect(world.server.url, ws0.channelId, { key: ws0.key });
  let beat = 0;
  /** The renderer sees a REST patch of its channel as a frame. */
  const stillFollows = async () => {
    beat = (beat + 1) % 1000;
    const since = renderer.mark();
    const res = await ws0.call('PATCH', `/v1/channels/${ws0.channelId}/inputs`, { period: 500 + beat });
    if (res.status === 429) return; // the channel's bucket is busy with the fuzzing: next time
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await renderer.next((m) => m.type === 'frame' && m.inputs?.period === 500 + beat, { since, timeoutMs: REPLY_MS });
  };
  return { renderer, stillFollows };
}

/** What the server sends on its own, whatever a controller says: not a reply. */
const PUSHED = new Set(['heartbeat', 'frame', 'outputs', 'sources']);

/** Sends frames from `frames` and judges each answer; the renderer and /healthz are checked every 25 cases. */
async function fuzzMessages(name: string, frames: fc.Arbitrary<Frame>, numRuns: number): Promise<void> {
  const { renderer, stillFollows } = await healthyRenderer();
  let runsDone = 0;
  await assertProperty(
    name,
    fc.asyncProperty(fc.nat({ max: WORKSPACES - 1 }), frames, async (i, f) => {
      const c = await controllerFor(i);
      await pace(i);
      const { data, binary } = encode(f);
      const since = c.messages.length;
      c.socket.send(data, { binary });
      // docs/api.md: `id` is null for a message that could not be read; a binary frame is not JSON text.
      const id = binary ? undefined : usableId(data);
      const resync = isResync(data);
      const problems: string[] = [];
      const reply = await c.until(
        since,
        (m) => {
          // Pushed whenever their state changes (docs/api.md): never an answer to the message sent.
          if (PUSHED.has(String(m.type))) return undefined;
          if (resync && (m.type === 'snapshot' || (m.type === 'error' && (m.id === null || m.id === id)))) return m;
          const ours =
            id === undefined ? m.id === null || m.id === usableId(data) : id === null ? m.id === null : m.id === id;
          if ((m.type === 'ack' || m.type === 'error') && ours) return m;
          return { type: `unexpected ${m.type}`, id: m.id, detail: JSON.stringify(m).slice(0, 200) };
        },
        REPLY_MS,
      );
      if (reply === 'timeout') problems.push(`no reply within ${REPLY_MS} ms and the connection still open (a hang)`);
      else if (reply === 'closed') {
        const code = c.closed!.code;
        closeCodes.set(code, (closeCodes.get(code) ?? 0) + 1);
        tally.add(`${f.kind} → closed ${code}`);
        if (!documentedClose(code))
          problems.push(`closed with undocumented code ${code} (${c.closed!.reason || 'no reason, no close frame'})`);
      } else {
        tally.add(`${f.kind} → ${reply.type}${reply.type === 'error' ? ` ${String(reply.code)}` : ''}`);
        if (reply.type.startsWith('unexpected')) problems.push(`${reply.type} message: ${String(reply.detail)}`);
        if (reply.type === 'error') {
          if (!CATALOGUE.has(String(reply.code)))
            problems.push(`error code ${JSON.stringify(reply.code)} is not in the catalogue`);
          if (typeof reply.detail !== 'string') problems.push('error without a string detail');
          else problems.push(...leaksIn(reply.detail, data.toString('utf8')));
        }
        if (reply.type === 'ack' && typeof reply.frame !== 'number') problems.push('ack without a frame');
      }
      problems.push(...uncaughtViolations(uncaught));
      if (++runsDone % 25 === 0 || problems.length > 0) {
        if (renderer.readyState !== WebSocket.OPEN)
          problems.push(`the healthy renderer was closed: ${JSON.stringify(await renderer.closed)}`);
        else await stillFollows().catch((err: Error) => problems.push(`the healthy renderer: ${err.message}`));
        const health = await healthStatus(world.server.url);
        if (health !== 200) problems.push(`GET /healthz answered ${health || 'nothing'}`);
      }
      fail(problems, describe(f, data));
    }),
    numRuns,
  );
  expect(renderer.readyState).toBe(WebSocket.OPEN);
  await stillFollows();
  expect(await healthStatus(world.server.url)).toBe(200);
  renderer.close();
}

it('answers every message it can read with an ack, an error of a catalogued code or a snapshot, or a documented close; a healthy renderer keeps its frames', async () => {
  await fuzzMessages('WebSocket messages', readableFrame(), runs(250));
}, 180_000);

it('closes a connection that sends a frame over 64 KiB or text that is not UTF-8 with a documented close code, and nothing else', async () => {
  await fuzzMessages('WebSocket frames the transport refuses', refusedFrame(), runs(30));
}, 120_000);

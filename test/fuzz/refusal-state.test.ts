/**
 * A refused request changes nothing. PATCH /v1/channels/{id}/inputs and scene create and
 * replace (POST …/scenes, PUT …/scenes/{sceneId}) are sent arbitrary bodies — most of them a mix of valid entries
 * (new values, which a partial apply would leave behind) and invalid ones, others hostile in shape (not an object,
 * nested thousands deep, over 64 KiB, not JSON, not UTF-8, not a JSON content type) — and whenever the answer is a
 * 4xx (429 included), GET …/state and GET …/scenes answer exactly what they did before. A 2xx may change them, but
 * never for a dry run (`?dryRun=1`). Every answer also keeps the contract of kit.ts `violations`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';
import { stableState, type State } from '../helpers/api.js';
import {
  bodyBytes,
  bodySpec,
  contentType,
  fromSchema,
  hostileJson,
  hugeString,
  nastyNumber,
  nastyString,
  obj,
  PROTO_KEYS,
  type BodySpec,
  type J,
  type SchemaContext,
} from './arbitraries.js';
import { assertProperty, codeOf, fail, runs, ServerWatch, Tally, trace, violations, workspaces } from './kit.js';
import { allowedStatuses, loadDocument, operationsOf, type OpenApiDoc, type Operation } from './openapi.js';
import { read, startWorld, type World, type Workspace } from './world.js';

const WORKSPACES = workspaces(5);

let world: World;
let watch: ServerWatch;
let doc: OpenApiDoc;
let operations: Operation[];
let inputs: { name: string; type: string }[];
const tally = new Tally();

beforeAll(async () => {
  world = await startWorld(WORKSPACES);
  watch = new ServerWatch(() => world.server.url);
  doc = await loadDocument(world.server.url);
  operations = operationsOf(doc);
  const ws = world.workspaces[0]!;
  const scene = await ws.call<{ inputs: { name: string; type: string }[] }>(
    'GET',
    `/v1/channels/${ws.channelId}/scenes/${ws.sceneId}`,
  );
  inputs = scene.body.inputs;
}, 120_000);

afterAll(async () => {
  console.log(tally.summary('refusals: route × status × code'));
  watch?.dispose();
  await world?.dispose();
});

function operation(name: string): Operation {
  const op = operations.find((o) => o.name === name);
  if (!op) throw new Error(`${name} is not in the OpenAPI document`);
  return op;
}

/** What the channel looks like from outside: its state (without serverTime) and its scenes. */
async function snapshot(ws: Workspace): Promise<{ state: unknown; scenes: unknown }> {
  const state = await read<State>(ws, `/v1/channels/${ws.channelId}/state`);
  const scenes = await read(ws, `/v1/channels/${ws.channelId}/scenes?limit=100`);
  return { state: stableState(state), scenes };
}

/** A snapshot that stays the same over a few ticks (at most about a second of waiting). */
async function settled(ws: Workspace): Promise<{ state: unknown; scenes: unknown }> {
  let seen = await snapshot(ws);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 60));
    const again = await snapshot(ws);
    if (JSON.stringify(again) === JSON.stringify(seen)) return again;
    seen = again;
  }
  return seen;
}

/** The last snapshot of each workspace's channel: "before" for the next case, so each case costs one look. */
const last = new Map<number, { state: unknown; scenes: unknown }>();

async function before(i: number): Promise<{ state: unknown; scenes: unknown }> {
  let seen = last.get(i);
  if (!seen) last.set(i, (seen = await snapshot(world.workspaces[i]!)));
  return seen;
}

interface Sent {
  op: Operation;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** Sends, judges the answer, and checks that a refusal (or a dry run) left the channel as it was. */
async function sendAndCompare(i: number, sent: Sent, dryRun: boolean): Promise<void> {
  const ws = world.workspaces[i]!;
  const was = await before(i);
  const description = `${sent.method} ${sent.path} ${JSON.stringify({ ...sent.headers, authorization: 'Bearer $ONAIR_KEY' })} body=${JSON.stringify((sent.body?.toString('latin1') ?? '').slice(0, 400))}`;
  const answer = await watch.send(world.client, sent, description);
  tally.add(`${sent.op.name} ${answer.status} ${codeOf(answer)}`.trim());
  const problems = violations(answer, {
    allowed: allowedStatuses(sent.op, false),
    sent: `${sent.path} ${sent.body?.toString('utf8') ?? ''}`,
  });
  const refused = answer.status >= 400 && answer.status < 500;
  // A scene saved (2xx) reaches the channel's state at its next tick, a moment after the answer: wait for that, so
  // that the next case's "before" is settled.
  const now = refused || dryRun ? await snapshot(ws) : await settled(ws);
  last.set(i, now);
  trace(
    () =>
      `  ws ${i} → ${answer.status}; state ${JSON.stringify(now.state).slice(0, 40)}…${JSON.stringify(now.state).slice(-120)}`,
  );
  if (refused || dryRun) {
    if (JSON.stringify(now.state) !== JSON.stringify(was.state))
      problems.push(`${refused ? `a refused (${answer.status})` : 'a dry-run'} request changed the state`);
    if (JSON.stringify(now.scenes) !== JSON.stringify(was.scenes))
      problems.push(`${refused ? `a refused (${answer.status})` : 'a dry-run'} request changed the scenes`);
    if (problems.length > 0) {
      const diff = (a: unknown, b: unknown) =>
        `\n    before: ${JSON.stringify(a).slice(0, 600)}\n    after:  ${JSON.stringify(b).slice(0, 600)}`;
      problems.push(`state:${diff(was.state, now.state)}`);
    }
  }
  fail(problems, `${description}\n  → ${answer.status} ${answer.text.slice(0, 300)}`);
}

function headersFor(ws: Workspace, type: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${ws.key}` };
  if (type !== undefined) headers['content-type'] = type;
  return headers;
}

// ---------------------------------------------------------------------------------------------------------------
// PATCH …/inputs

/** A value an input of this type accepts, different from most current values. */
function validValue(type: string): fc.Arbitrary<J> {
  switch (type) {
    case 'number':
      return fc.integer({ min: 0, max: 999 });
    case 'text':
      return fc.string({ minLength: 1, maxLength: 12 });
    case 'boolean':
      return fc.boolean();
    case 'color':
      return fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
    default:
      return fc.constant(null);
  }
}

/** A value this input must refuse. */
function wrongValue(type: string): fc.Arbitrary<J> {
  const byType: Record<string, fc.Arbitrary<J>> = {
    number: fc.oneof(fc.constantFrom<J>('five', '', '1', true, [], 1e16, -1e16), hugeString),
    text: fc.oneof(fc.constantFrom<J>(42, true, [], obj([])), hugeString),
    boolean: fc.constantFrom<J>('true', 1, 0, 'yes', []),
    color: fc.constantFrom<J>('red', '#12', '#gggggg', 'rgb(1,2,3)', 12, '#1234567', ''),
    clock: fc.constantFrom<J>('start', 1, true, obj([['running', true]])),
  };
  return byType[type] ?? fc.oneof(nastyString, nastyNumber);
}

function patchBody(): fc.Arbitrary<BodySpec> {
  const valid = inputs
    .filter((i) => i.type !== 'clock' && i.type !== 'image')
    .map((i) => fc.tuple(fc.constant(i.name), validValue(i.type)));
  const wrong = fc.oneof(
    ...inputs.map((i) => fc.tuple(fc.constant(i.name), wrongValue(i.type))),
    fc.tuple(
      fc.oneof(fc.constantFrom(...PROTO_KEYS), nastyString, fc.constantFrom('scorea', 'scoreC', 'score A')),
      nastyNumber,
    ),
  );
  // Valid entries with at least one wrong one, in any order: a partial apply would show.
  const mixed = fc
    .tuple(
      fc
        .subarray(valid)
        .chain((arbs): fc.Arbitrary<[string, J][]> => (arbs.length > 0 ? fc.tuple(...arbs) : fc.constant([]))),
      fc.array(wrong, { minLength: 1, maxLength: 3 }),
      fc.nat(),
    )
    .map(([good, bad, seed]): BodySpec => {
      const entries = [...good, ...bad];
      const at = seed % (entries.length + 1);
      return { kind: 'json', value: obj([...entries.slice(at), ...entries.slice(0, at)]) };
    });
  // 101 entries: one over the 100-input limit, all valid names (repeated).
  const tooMany = fc.constant<BodySpec>({
    kind: 'json',
    value: obj(Array.from({ length: 101 }, (_, n) => [inputs[n % 3]!.name, n] as [string, J])),
  });
  return fc.oneof(
    { weight: 6, arbitrary: mixed },
    { weight: 1, arbitrary: tooMany },
    { weight: 3, arbitrary: bodySpec(hostileJson(inputs.map((i) => i.name))) },
  );
}

it('leaves state and scenes untouched when PATCH …/inputs is refused', async () => {
  const op = operation('PATCH /channels/{id}/inputs');
  const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8');
  await assertProperty(
    'PATCH inputs: refused means unchanged',
    fc.asyncProperty(
      fc.record({
        ws: fc.nat({ max: WORKSPACES - 1 }),
        body: patchBody(),
        contentType: fc.oneof({ weight: 5, arbitrary: jsonType }, { weight: 1, arbitrary: contentType }),
      }),
      async (c) => {
        const ws = world.workspaces[c.ws]!;
        const sent = {
          op,
          method: 'PATCH',
          path: `/v1/channels/${ws.channelId}/inputs`,
          headers: headersFor(ws, c.contentType),
          body: bodyBytes(c.body),
        };
        await sendAndCompare(c.ws, sent, false);
      },
    ),
    runs(200),
  );
}, 120_000);

// ---------------------------------------------------------------------------------------------------------------
// POST …/scenes and PUT …/scenes/{sceneId}

function sceneContext(): SchemaContext {
  return {
    components: doc.components.schemas,
    keys: [...inputs.map((i) => i.name), 'name', 'template', 'definition', 'layer', 'elements', 'inputs'],
    ids: [],
  };
}

it('leaves state and scenes untouched when a scene create or replace is refused, and when it is a dry run', async () => {
  const create = operation('POST /channels/{id}/scenes');
  const replace = operation('PUT /channels/{id}/scenes/{sceneId}');
  const ctx = sceneContext();
  const shaped = (op: Operation) => (op.body ? fromSchema(op.body, ctx) : hostileJson(ctx.keys));
  await assertProperty(
    'scenes: refused means unchanged',
    fc.asyncProperty(
      fc.record({
        ws: fc.nat({ max: WORKSPACES - 1 }),
        replace: fc.boolean(),
        /** PUT: the scene on air, the spare one, or one that does not exist. */
        target: fc.constantFrom('on air', 'spare', 'missing'),
        dryRun: fc.constantFrom('', '', '?dryRun=1', '?dryRun=true', '?dryRun=0', '?dryRun=yes'),
        body: fc.oneof(
          {
            weight: 5,
            arbitrary: fc.oneof(shaped(create), shaped(replace)).map((value): BodySpec => ({ kind: 'json', value })),
          },
          { weight: 2, arbitrary: bodySpec(hostileJson(ctx.keys)) },
          {
            weight: 1,
            arbitrary: fc
              .integer({ min: 50, max: 1_100 })
              .map((depth): BodySpec => ({ kind: 'deep', depth, shape: 'group' })),
          },
        ),
      }),
      async (c) => {
        const ws = world.workspaces[c.ws]!;
        const op = c.replace ? replace : create;
        const sceneId =
          c.target === 'on air'
            ? ws.sceneId
            : c.target === 'spare'
              ? ws.victimSceneId
              : 'sc_00000000000000000000000000000000';
        const path = c.replace
          ? `/v1/channels/${ws.channelId}/scenes/${sceneId}${c.dryRun}`
          : `/v1/channels/${ws.channelId}/scenes${c.dryRun}`;
        const sent = {
          op,
          method: op.method,
          path,
          headers: headersFor(ws, 'application/json'),
          body: bodyBytes(c.body),
        };
        await sendAndCompare(c.ws, sent, /^\?dryRun=(1|true)$/.test(c.dryRun));
      },
    ),
    runs(150),
  );
}, 120_000);

/**
 * Every REST route of the OpenAPI document, fuzzed. For each path × method of
 * GET /v1/openapi.json, fast-check sends requests that are hostile in one or more ways — arbitrary and
 * schema-shaped JSON (prototype keys, duplicate keys, values at and past every limit), nesting 1,000–30,000 levels
 * deep, strings across the 64 KiB limit, bodies that are not JSON or not UTF-8, content types that are almost
 * JSON, path ids with traversal, escapes, NUL and latin1 bytes, query strings with broken escapes and unknown
 * parameters, odd Authorization, Idempotency-Key, X-Request-Id and X-Workspace headers — and every answer must keep
 * the contract (kit.ts `violations`): a status the route or docs/api.md documents (2xx only those the route lists),
 * application/problem+json with a catalogued code of that status, X-Request-Id, no stack trace, no 500, an answer
 * within 5 s. Requests go as the workspace's `*` key, the owner's session, no credential or a bogus one, spread over
 * several workspaces. The server answers GET /healthz 200 after each route.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  bodyBytes,
  bodySpec,
  contentType,
  fromSchema,
  headerValue,
  hostileJson,
  hostileSegment,
  nearValid,
  queryString,
  type BodySpec,
  type SchemaContext,
} from './arbitraries.js';
import {
  assertProperty,
  codeOf,
  expand,
  fail,
  healthStatus,
  runs,
  ServerWatch,
  Tally,
  violations,
  workspaces,
  type HttpAnswer,
} from './kit.js';
import { allowedStatuses, fillPath, loadDocument, operationsOf, type OpenApiDoc, type Operation } from './openapi.js';
import { startWorld, type World, type Workspace } from './world.js';

const WORKSPACES = workspaces(6);
const RUNS_PER_ROUTE = runs(60);

let world: World;
let watch: ServerWatch;
let doc: OpenApiDoc;
let operations: Operation[];
let inputNames: string[];
const tally = new Tally();

beforeAll(async () => {
  world = await startWorld(WORKSPACES);
  watch = new ServerWatch(() => world.server.url);
  doc = await loadDocument(world.server.url);
  operations = operationsOf(doc);
  const scene = await world.workspaces[0]!.call<{ inputs: { name: string }[] }>(
    'GET',
    `/v1/channels/${world.workspaces[0]!.channelId}/scenes/${world.workspaces[0]!.sceneId}`,
  );
  inputNames = scene.body.inputs.map((i) => i.name);
}, 120_000);

afterAll(async () => {
  console.log(tally.summary('REST routes: status code × error code × what was fuzzed'));
  watch?.dispose();
  await world?.dispose();
});

// ---------------------------------------------------------------------------------------------------------------

type Credential = 'key' | 'session' | 'none' | { bogus: string };

interface Case {
  /** Which workspace's key, ids and buckets. */
  ws: number;
  /** Path parameter → null for the real id, or a hostile segment. */
  ids: Record<string, string | null>;
  query: string;
  body: BodySpec;
  contentType: string | undefined;
  credential: Credential;
  origin: 'self' | 'none' | 'evil';
  headers: { 'idempotency-key'?: string; 'x-request-id'?: string; 'x-workspace'?: string };
}

function schemaContext(ws: Workspace): SchemaContext {
  const fieldNames = new Set<string>();
  for (const schema of Object.values(doc.components.schemas))
    for (const name of Object.keys(schema.properties ?? {})) fieldNames.add(name);
  return {
    components: doc.components.schemas,
    keys: [...inputNames, 'home_score', 'game.clock.running', 'a.b.c.d.e.f.g.h.i', ...fieldNames],
    ids: [ws.channelId, ws.sceneId, ws.victimSceneId, ws.keyId, world.owner.userId],
  };
}

/** Bodies for the operation: shaped by its request schema, or arbitrary JSON when it declares none. */
function bodiesFor(op: Operation, ctx: SchemaContext): fc.Arbitrary<BodySpec> {
  const json = op.body
    ? fc.oneof(nearValid(op.body, ctx), fromSchema(op.body, ctx), hostileJson(ctx.keys))
    : hostileJson(ctx.keys);
  return bodySpec(json);
}

function caseFor(op: Operation): fc.Arbitrary<Case> {
  const ctx = schemaContext(world.workspaces[0]!);
  const realOr = (hostileWeight: number) =>
    fc.oneof(
      { weight: 10 - hostileWeight, arbitrary: fc.constant(null) },
      { weight: hostileWeight, arbitrary: hostileSegment },
    );
  const ids = (hostileWeight: number) =>
    fc.record(Object.fromEntries(op.params.map((p) => [p, realOr(hostileWeight)])));
  const credential: fc.Arbitrary<Credential> = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Credential>('key') },
    { weight: 3, arbitrary: fc.constant<Credential>('session') },
    { weight: 1, arbitrary: fc.constant<Credential>('none') },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          headerValue,
          fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'bearer onair_sk_', 'Bearer onair_sk_' + 'A'.repeat(40)),
        )
        .map((bogus): Credential => ({ bogus })),
    },
  );
  const headers = fc.record(
    {
      'idempotency-key': fc.oneof(headerValue, fc.uuid()),
      'x-request-id': headerValue,
      'x-workspace': fc.oneof(headerValue, fc.constantFrom(...world.workspaces.map((w) => w.orgId))),
    },
    { requiredKeys: [] },
  );
  const common = {
    ws: fc.nat({ max: WORKSPACES - 1 }),
    credential,
    origin: fc.constantFrom<Case['origin']>('self', 'self', 'self', 'none', 'evil'),
  };
  const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8');
  // Three mixes: hostile bodies on real ids; hostile ids and queries; hostile transport (types, bytes, headers).
  return fc.oneof(
    fc.record({
      ...common,
      ids: ids(1),
      query: fc.constant(''),
      body: bodiesFor(op, ctx),
      contentType: jsonType,
      headers: fc.constant({}),
    }),
    fc.record({
      ...common,
      ids: ids(7),
      query: queryString(op.query, ctx),
      body: bodiesFor(op, ctx),
      contentType: jsonType,
      headers: fc.constant({}),
    }),
    fc.record({
      ...common,
      ids: ids(3),
      query: queryString(op.query, ctx),
      body: bodiesFor(op, ctx),
      contentType,
      headers,
    }),
  );
}

function request(op: Operation, c: Case) {
  const ws = world.workspaces[c.ws]!;
  const path = fillPath(op, ws, world, c.ids);
  const headers: Record<string, string> = {};
  let credential = c.credential;
  // A fuzzed logout with the owner's session would sign every later case out.
  if (credential === 'session' && op.path === '/auth/logout') credential = 'none';
  if (credential === 'key') headers.authorization = `Bearer ${ws.key}`;
  else if (credential === 'session') {
    headers.cookie = world.owner.cookie;
    headers['x-workspace'] = ws.orgId;
  } else if (credential !== 'none') headers.authorization = expand(credential.bogus);
  if (c.origin === 'self') headers.origin = world.server.url;
  else if (c.origin === 'evil') headers.origin = 'https://evil.example';
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  for (const [name, value] of Object.entries(c.headers)) headers[name] = expand(value);
  return { method: op.method, path: expand(`${path}${c.query}`), headers, body: bodyBytes(c.body) };
}

function describeCase(op: Operation, req: ReturnType<typeof request>, answer?: HttpAnswer): string {
  const body = req.body ? req.body.toString('latin1') : '';
  const shown = body.length > 300 ? `${body.slice(0, 300)}… (${body.length} bytes)` : body;
  const headers = { ...req.headers };
  if (headers.authorization?.startsWith('Bearer onair_sk_')) headers.authorization = 'Bearer $ONAIR_KEY';
  if (headers.cookie) headers.cookie = 'onair_session=…';
  return (
    `${op.name}: ${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(headers)} body=${JSON.stringify(shown)}` +
    (answer ? ` → ${answer.status} ${answer.text.slice(0, 300)}` : '')
  );
}

function record(op: Operation, c: Case, answer: HttpAnswer, allowed: Set<number>): void {
  const hostileId = Object.values(c.ids).some((v) => v !== null);
  tally.add(`${answer.status} ${codeOf(answer)}`.trim());
  if (!op.statuses.has(answer.status) && allowed.has(answer.status) && answer.status !== 503) {
    const why =
      answer.status === 409 && c.headers['idempotency-key'] !== undefined ? ' (an Idempotency-Key clash)' : '';
    tally.note(`${op.name} answered ${answer.status} ${codeOf(answer)}${why}, not among its OpenAPI responses`);
  }
  if (answer.status === 503) tally.note(`${op.name} answered 503 ${answer.text.slice(0, 200)}`);
  if (hostileId && answer.status < 300)
    tally.note(`${op.name} with hostile ids ${JSON.stringify(c.ids)} answered ${answer.status}`);
}

it('answers every route, whatever is sent, with a documented status and a catalogued problem, never a 500', async () => {
  expect(operations.length).toBeGreaterThan(50);
  const failures: string[] = [];
  for (const op of operations) {
    try {
      await assertProperty(
        op.name,
        fc.asyncProperty(caseFor(op), async (c) => {
          const req = request(op, c);
          const allowed = allowedStatuses(op, c.headers['idempotency-key'] !== undefined);
          const answer = await watch.send(world.client, req, describeCase(op, req));
          record(op, c, answer, allowed);
          const sent = `${req.path} ${JSON.stringify(req.headers)} ${req.body?.toString('utf8') ?? ''}`;
          fail(violations(answer, { allowed, sent }), describeCase(op, req, answer));
        }),
        RUNS_PER_ROUTE,
      );
    } catch (err) {
      failures.push((err as Error).message);
    }
    const health = await healthStatus(world.server.url);
    if (health !== 200) {
      failures.push(
        `GET /healthz answered ${health || 'nothing'} after fuzzing ${op.name}: routes after it not fuzzed`,
      );
      break;
    }
  }
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}, 240_000);

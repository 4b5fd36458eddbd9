/**
 * One operation, one answer: every channel operation reached through each of its entry points (the fast
 * PATCH route the transport answers itself, the Hono route, the WebSocket op) answers the same request with
 * the same status, code and detail (docs/api.md, "Real-time WebSocket": ops follow the REST rules).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@onair/protocol';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Channel } from './helpers/api.js';
import { createKey } from './helpers/access-fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused, type AckMessage, type ErrorMessage } from './helpers/ws-client.js';

let server: TestServer;
let root: Api;
let channelId: string;
let sceneId: string;
let otherChannel: string;
const clients: RenderClient[] = [];

beforeEach(async () => {
  // Every request counts against the channel's updates bucket, refused ones too (docs/api.md, "The order of checks"):
  // the limiter's clock moves 100 ms per decision, so the cases compare answers, never the 30/s limit.
  let limiterNow = Date.now();
  server = await startTestServer({ limiterClock: () => (limiterNow += 100) });
  root = api(server.url, server.key);
  ({ channelId, sceneId } = await createChannelWithScoreboard(root));
  otherChannel = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201).id;
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

/** What a caller learns from an answer, whichever way it came. */
interface Answer {
  status: number;
  code?: string;
  detail?: string;
  errors?: unknown;
}

type EntryPoint = (key: string, channel: string, method: string, path: string, body: unknown) => Promise<Answer>;

async function fromResponse(res: Response): Promise<Answer> {
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (res.status < 400) return { status: res.status };
  return { status: res.status, code: body.code as string, detail: body.detail as string, errors: body.errors };
}

const rawBody = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

/** Over HTTP through the real transport (PATCH …/inputs is answered by the fast route). */
const http: EntryPoint = async (key, channel, method, path, body) =>
  fromResponse(
    await fetch(`${server.url}/v1/channels/${channel}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: rawBody(body),
    }),
  );

/** Straight into the Hono app, past the transport. */
const hono: EntryPoint = async (key, channel, method, path, body) =>
  fromResponse(
    await server.handle.fetchApi(
      new Request(`${server.url}/v1/channels/${channel}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: rawBody(body),
      }),
    ),
  );

/** The WebSocket op of the same name; its error code gives the status the REST route would answer. */
function websocket(toOp: (path: string, body: unknown) => Record<string, unknown>): EntryPoint {
  return async (key, channel, _method, path, body) => {
    let client: RenderClient;
    try {
      client = await RenderClient.connect(server.url, channel, { key });
    } catch (err) {
      // A socket belongs to one channel: another workspace's channel is refused at the upgrade.
      if (!(err instanceof UpgradeRefused)) throw err;
      const problem = JSON.parse(err.body) as { code: string; detail: string };
      return { status: err.status, code: problem.code, detail: problem.detail };
    }
    clients.push(client);
    await client.next((m) => m.type === 'snapshot');
    const id = `op-${clients.length}`;
    client.send({ ...toOp(path, body), id });
    const reply: AckMessage | ErrorMessage = await client.reply(id);
    if (reply.type === 'ack') return { status: 200 };
    return {
      status: ERROR_CATALOGUE[reply.code as keyof typeof ERROR_CATALOGUE].status,
      code: reply.code,
      detail: reply.detail,
    };
  };
}

interface Case {
  name: string;
  body: unknown;
  path?: string;
  key?: 'narrow' | 'root';
  channel?: 'other-workspace';
}

/** Nothing cued, nothing on air: the same start for every entry point. */
async function reset(): Promise<void> {
  await root('POST', `/v1/channels/${channelId}/take`);
  expectStatus(await root('POST', `/v1/channels/${channelId}/clear`), 200);
}

/** Runs the cases in order through each entry point, from the same state, and compares the answers. */
async function compare(cases: Case[], method: string, path: string, entries: Record<string, EntryPoint>) {
  const narrow = (await createKey(root, ['channels:read'])).secret;
  const keys = { root: server.key, narrow };
  const runs: Record<string, Answer[]> = {};
  for (const [name, entry] of Object.entries(entries)) {
    await reset();
    runs[name] = [];
    for (const c of cases) {
      const channel = c.channel === 'other-workspace' ? 'ch_0000000000000000000000000000dead' : channelId;
      const answer = await entry(keys[c.key ?? 'root'], channel, method, c.path ?? path, c.body);
      delete answer.errors;
      runs[name].push(answer);
    }
  }
  const [firstName, first] = Object.entries(runs)[0]!;
  for (const [name, answers] of Object.entries(runs).slice(1)) {
    cases.forEach((c, i) => expect(answers[i], `${c.name}: ${name} vs ${firstName}`).toEqual(first[i]));
  }
  return first;
}

describe('PATCH …/inputs, the fast route, the Hono route and the patch op', () => {
  it('answer every request the same way', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x${i}`, 1]));
    await compare(
      [
        { name: 'a good patch', body: { scoreA: 2 } },
        { name: 'an array', body: [1] },
        { name: 'a string', body: 'scoreA' },
        { name: 'an empty object', body: {} },
        { name: 'too many inputs', body: many },
        { name: 'an unknown input', body: { scoreX: 1 } },
        { name: 'a wrong type', body: { scoreA: 'three' } },
        { name: 'a prototype name', body: JSON.parse('{"__proto__": 1}') as unknown },
        { name: 'a key without inputs:write', body: { scoreA: 3 }, key: 'narrow' },
        { name: 'a channel of no workspace', body: { scoreA: 3 }, channel: 'other-workspace' },
      ],
      'PATCH',
      '/inputs',
      { http, hono, websocket: websocket((_p, body) => ({ op: 'patch', inputs: body })) },
    ).then((answers) =>
      expect(answers.map((a) => a.code ?? a.status)).toEqual([
        200,
        'invalid_request',
        'invalid_request',
        'invalid_request',
        'invalid_request',
        'unknown_input',
        'invalid_request',
        'unknown_input',
        'forbidden',
        'not_found',
      ]),
    );
  });
});

describe('playout, triggers and clocks, the REST route and the WebSocket op', () => {
  const OPS: Record<string, string> = { triggers: 'trigger', clocks: 'clock' };
  const viaWs = websocket((path, body) => {
    const [, route = '', name] = /^\/(\w+)(?:\/(\w+))?$/.exec(path) ?? [];
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : { body };
    return { op: OPS[route] ?? route, ...(name ? { name } : {}), ...fields };
  });

  it('answer every request the same way', async () => {
    const answers = await compare(
      [
        { name: 'cue', path: '/preview', body: { sceneId } },
        { name: 'cue an unknown scene', path: '/preview', body: { sceneId: 'sc_nope' } },
        { name: 'cue without a scene', path: '/preview', body: {} },
        { name: 'cue with an extra field', path: '/preview', body: { sceneId, layer: 2 } },
        { name: 'take a layer out of range', path: '/take', body: { layer: 100 } },
        { name: 'take', path: '/take', body: {} },
        { name: 'take with nothing cued', path: '/take', body: {} },
        { name: 'clear a layer and a scene', path: '/clear', body: { layer: 0, sceneId } },
        { name: 'cut', path: '/program', body: { sceneId } },
        { name: 'clear', path: '/clear', body: {} },
        { name: 'clear without playout:write', path: '/clear', body: {}, key: 'narrow' },
        { name: 'an unknown trigger', path: '/triggers/nope', body: {} },
        { name: 'a clock action without ms', path: '/clocks/gameClock', body: { action: 'set' } },
        { name: 'a clock action with a stray ms', path: '/clocks/gameClock', body: { action: 'start', ms: 1 } },
        { name: 'an unknown clock', path: '/clocks/nope', body: { action: 'start' } },
        { name: 'an unknown action', path: '/clocks/gameClock', body: { action: 'rewind' } },
        { name: 'playout on another workspace', path: '/take', body: {}, channel: 'other-workspace' },
      ],
      'POST',
      '',
      { http, websocket: viaWs },
    );
    // The sequence means something: the take worked, the second take found preview empty, and so on.
    expect(answers.map((a) => a.code ?? a.status)).toEqual([
      200,
      'not_found',
      'invalid_request',
      'invalid_request',
      'invalid_request',
      200,
      'preview_empty',
      'invalid_request',
      200,
      200,
      'forbidden',
      'unknown_trigger',
      'invalid_request',
      'invalid_request',
      'not_found',
      'invalid_request',
      'not_found',
    ]);
  });
});

it('the other channel stays untouched by all of it', async () => {
  const state = expectStatus(await root<{ program: unknown[] }>('GET', `/v1/channels/${otherChannel}/state`), 200);
  expect(state.program).toEqual([]);
});

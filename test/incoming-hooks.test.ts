/**
 * Incoming webhooks (docs/incoming-hooks.md): managing a channel's hooks, and what a post to a hook's URL does —
 * content types, mapping (flat and dotted), coercion, all-or-nothing, clocks, dry runs, events, signatures — checked
 * against a real server, its state, its event log and a real renderer's WebSocket frames.
 */
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  stableState,
  type Api,
  type ApiResponse,
  type Event,
  type List,
  type ScoreboardChannel,
} from './helpers/api.js';
import { sleepUntil } from './helpers/access-fixtures.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import type { Delivery, Hook, HookAnswer, HookCreated, Refusal } from './helpers/incoming-hooks.js';
import { isFrame, isSnapshot, RenderClient, type FrameMessage } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let ch: ScoreboardChannel;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  ch = await createChannelWithScoreboard(call);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

const hooksPath = (channelId = ch.channelId) => `/v1/channels/${channelId}/incoming-hooks`;

async function addHook(body: Record<string, unknown> = {}, channelId = ch.channelId): Promise<HookCreated> {
  return expectStatus(await call<HookCreated>('POST', hooksPath(channelId), body), 201);
}

interface PostOptions {
  contentType?: string;
  headers?: Record<string, string>;
  query?: string;
}

/** A post to a hook URL as a scorekeeper sends it: no Authorization, the body as given (an object is JSON-encoded). */
function post<T = HookAnswer>(url: string, body: unknown, o: PostOptions = {}): Promise<ApiResponse<T>> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = { 'content-type': o.contentType ?? 'application/json', ...o.headers };
  return api(url, '')<T>('POST', o.query ?? '', undefined, { raw, headers, noAuth: true });
}

/** `v1=` + hex HMAC-SHA256 keyed with the secret's UTF-8 bytes over "timestamp.body" (docs/incoming-hooks.md). */
function sign(secret: string, timestamp: string, body: string): Record<string, string> {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`).digest('hex');
  return { 'x-service-timestamp': timestamp, 'x-service-signature': `v1=${mac}` };
}

const nowS = (offset = 0) => String(Math.floor(Date.now() / 1000) + offset);

async function deliveries(hook: Hook): Promise<Delivery[]> {
  return expectStatus(await call<List<Delivery>>('GET', `${hooksPath()}/${hook.id}/deliveries`), 200).data;
}

async function hookEvents(): Promise<Event[]> {
  const list = expectStatus(await call<List<Event>>('GET', '/v1/events?type=channel.bind_updated'), 200);
  return list.data.filter((e) => e.data.source === 'incoming_webhook');
}

describe('managing hooks', () => {
  it('creates a hook with its URL once, lists and reads it without the URL, renames and remaps it', async () => {
    const mapping = { home_score: 'scoreA', 'game.away.score': 'scoreB' };
    const created = await addHook({ name: 'Scorekeeper', mapping });
    expect(created).toMatchObject({ channelId: ch.channelId, name: 'Scorekeeper', mapping, requireSignature: false });
    expect(created.id).toMatch(/^hook_/);
    expect(created.secret).toBeNull();
    expect(created.url).toMatch(new RegExp(`^${server.url}/v1/hooks/[A-Za-z0-9]{32}$`));
    const token = created.url.split('/').pop()!;
    const stored: Partial<HookCreated> = { ...created };
    delete stored.url;
    delete stored.secret;
    const read = expectStatus(await call<Hook>('GET', `${hooksPath()}/${created.id}`), 200);
    expect(read).not.toHaveProperty('url');
    expect(read).not.toHaveProperty('secret');
    expect(read).toEqual(stored);
    const list = expectStatus(await call<List<Hook>>('GET', hooksPath()), 200);
    expect(list.data).toEqual([stored]);
    expect(JSON.stringify(list)).not.toContain(token);

    const renamed = expectStatus(
      await call<Hook>('PATCH', `${hooksPath()}/${created.id}`, { name: 'Feed', mapping: { pts: 'scoreA' } }),
      200,
    );
    expect(renamed).toMatchObject({ id: created.id, name: 'Feed', mapping: { pts: 'scoreA' } });
    expect(renamed).not.toHaveProperty('url');
    const answer = expectStatus(await post(created.url, { pts: 7, home_score: 1 }), 200);
    expect(answer.applied).toEqual({ scoreA: 7 });
    expect(answer.ignored).toEqual(['home_score']);
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(7);

    expect(expectStatus(await call('DELETE', `${hooksPath()}/${created.id}`), 204)).toBe('');
    expectProblem(await post(created.url, { pts: 8 }), 404, 'not_found');
    expectProblem(await call('GET', `${hooksPath()}/${created.id}`), 404, 'not_found');
    expect(expectStatus(await call<List<Hook>>('GET', hooksPath()), 200).data).toEqual([]);
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(7);
  });

  it('refuses a mapping to an undeclared input, a bad field path, and a key without channels:write', async () => {
    const unknown = expectProblem(
      await call('POST', hooksPath(), { mapping: { home_score: 'scoreA', pts: 'scoreZ' } }),
      400,
      'unknown_input',
    );
    expect(errorPaths(unknown)).toEqual(['mapping.pts']);
    for (const field of ['game..score', 'a b', 'game.', 'score!']) {
      expectProblem(await call('POST', hooksPath(), { mapping: { [field]: 'scoreA' } }), 400, 'invalid_request');
    }
    const hook = await addHook({ mapping: { pts: 'scoreA' } });
    const bad = expectProblem(
      await call('PATCH', `${hooksPath()}/${hook.id}`, { mapping: { pts: 'nope' } }),
      400,
      'unknown_input',
    );
    expect(errorPaths(bad)).toEqual(['mapping.pts']);
    expect(expectStatus(await call<Hook>('GET', `${hooksPath()}/${hook.id}`), 200).mapping).toEqual({ pts: 'scoreA' });
    const { secret } = expectStatus(
      await call<{ secret: string }>('POST', '/v1/keys', { name: 'reader', permissions: ['channels:read'] }),
      201,
    );
    const reader = api(server.url, secret);
    expectProblem(await reader('POST', hooksPath(), {}), 403, 'forbidden');
    expectProblem(await reader('DELETE', `${hooksPath()}/${hook.id}`), 403, 'forbidden');
    expect(expectStatus(await reader<List<Hook>>('GET', hooksPath()), 200).data.map((h) => h.id)).toEqual([hook.id]);
  });

  it('answers a GET on the URL with how to use it, never the mapping; an unknown token is 404', async () => {
    const hook = await addHook({ mapping: { secretive_field: 'scoreA', 'deep.hidden_path': 'scoreB' } });
    const res = await api(hook.url, '')<Record<string, unknown>>('GET', '', undefined, { noAuth: true });
    const body = expectStatus(res, 200);
    expect(body).toMatchObject({ method: 'POST', requireSignature: false });
    expect(typeof body.message).toBe('string');
    const text = JSON.stringify(body);
    for (const hidden of ['secretive_field', 'hidden_path', 'scoreA', 'scoreB']) expect(text).not.toContain(hidden);
    const stranger = `${server.url}/v1/hooks/${'A'.repeat(32)}`;
    expectProblem(await post(stranger, { scoreA: 1 }), 404, 'not_found');
    expectProblem(await api(stranger, '')('GET', '', undefined, { noAuth: true }), 404, 'not_found');
  });
});

describe('posting', () => {
  it('takes application/json with or without a charset; refuses other types, bad JSON and non-objects', async () => {
    const hook = await addHook();
    expect(expectStatus(await post(hook.url, { scoreA: 1 }), 200).applied).toEqual({ scoreA: 1 });
    const withCharset = await post(hook.url, { scoreA: 2 }, { contentType: 'application/json; charset=utf-8' });
    expect(expectStatus(withCharset, 200).applied).toEqual({ scoreA: 2 });
    const before = stableState(await getState(call, ch.channelId));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const refused = expectProblem(
        await post(hook.url, { scoreA: 9 }, { contentType: type }),
        415,
        'unsupported_media_type',
      );
      expect(refused.detail).toContain('Content-Type: application/json');
    }
    expect(expectProblem(await post(hook.url, '{"scoreA": 9'), 400, 'invalid_request').status).toBe(400);
    for (const notObject of ['[1,2]', '3', '"scoreA"', 'null', 'true']) {
      expectProblem(await post(hook.url, notObject), 400, 'invalid_request');
    }
    expect(stableState(await getState(call, ch.channelId))).toEqual(before);
  });

  it('with no mapping, sets each top-level field named after an input and lists the rest as ignored', async () => {
    const hook = await addHook();
    const body = { scoreA: '3', home: 2, period: 4, venue: 'Arena', game: { away: { score: 1 }, note: 'x' } };
    const answer = expectStatus(await post(hook.url, body), 200);
    expect(answer.applied).toEqual({ scoreA: 3, home: '2', period: 4 });
    expect([...answer.ignored].sort()).toEqual(['game.away.score', 'game.note', 'venue']);
    expect(typeof answer.frame).toBe('number');
    expect((await getState(call, ch.channelId)).inputs).toMatchObject({ scoreA: 3, home: '2', period: 4 });
    const nothing = expectStatus(await post(hook.url, { venue: 'Arena', crowd: 1200 }), 200);
    expect(nothing).toEqual({ frame: null, applied: {}, ignored: ['venue', 'crowd'] });
  });

  it('with a mapping, applies only mapped (dotted) paths; frame is the frame a renderer receives', async () => {
    const mapping = { 'game.home.score': 'scoreA', 'game.home.name': 'home', quarter: 'periodLabel' };
    const hook = await addHook({ mapping });
    const client = await RenderClient.connect(server.url, ch.channelId, { token: ch.token });
    clients.push(client);
    await client.next(isSnapshot);
    const since = client.mark();
    const body = { game: { home: { score: '12', name: 'Lions' }, away: { score: 9 } }, quarter: 3, scoreB: 4 };
    const answer = expectStatus(await post(hook.url, body), 200);
    expect(answer.applied).toEqual({ scoreA: 12, home: 'Lions', periodLabel: '3' });
    expect([...answer.ignored].sort()).toEqual(['game.away.score', 'scoreB']);
    const frame = await client.next<FrameMessage>((m) => isFrame(m) && m.inputs?.scoreA === 12, { since });
    expect(frame.inputs).toMatchObject({ scoreA: 12, home: 'Lions', periodLabel: '3' });
    expect(answer.frame).toBe(frame.frame);
    const state = await getState(call, ch.channelId);
    expect(state.inputs).toMatchObject({ scoreA: 12, home: 'Lions', periodLabel: '3' });
    expect(state.inputs.scoreB).not.toBe(4);
  });

  it('coerces booleans, refuses a misfit naming field and input, and applies nothing of that post', async () => {
    const definition = { layer: 30, inputs: [{ name: 'live', type: 'boolean', default: false }] };
    expectStatus(await call('POST', `/v1/channels/${ch.channelId}/scenes`, { name: 'Flag', definition }), 201);
    const hook = await addHook({ mapping: { home_score: 'scoreA', away_score: 'scoreB', on: 'live', team: 'home' } });
    expect(expectStatus(await post(hook.url, { on: 'true' }), 200).applied).toEqual({ live: true });
    expect(expectStatus(await post(hook.url, { on: false }), 200).applied).toEqual({ live: false });
    const before = stableState(await getState(call, ch.channelId));
    const misfit = expectProblem(await post(hook.url, { home_score: 'abc', away_score: 5 }), 400, 'invalid_request');
    expect(misfit).toMatchObject({ field: 'home_score', input: 'scoreA' });
    expect(errorPaths(misfit)).toEqual(['home_score']);
    expect(misfit.detail).toMatch(/^Field "home_score" sets input "scoreA" \(number\), which must be a number/);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ away_score: true }, 'away_score', 'scoreB'],
      [{ on: 'yes' }, 'on', 'live'],
      [{ on: 1 }, 'on', 'live'],
      [{ team: { name: 'Lions' } }, 'team', 'home'],
      [{ team: true, away_score: 1 }, 'team', 'home'],
    ];
    for (const [body, field, input] of cases) {
      const p = expectProblem(await post(hook.url, body), 400, 'invalid_request');
      expect(p, JSON.stringify(body)).toMatchObject({ field, input });
      expect(errorPaths(p)).toEqual([field]);
    }
    expect(stableState(await getState(call, ch.channelId))).toEqual(before);
    const log = await deliveries(hook);
    expect(log[cases.length]).toMatchObject({ status: 400, applied: {}, dryRun: false });
    expect(log[cases.length]!.error).toMatch(/^invalid_request: Field "home_score" sets input "scoreA"/);
    expect(log[cases.length]!.payload).toBe(JSON.stringify({ home_score: 'abc', away_score: 5 }));
  });

  it('starts, stops and sets the game clock from booleans and milliseconds', async () => {
    const hook = await addHook({ mapping: { 'clock.running': 'gameClock', clock_ms: 'gameClock' } });
    const clock = async () => (await getState(call, ch.channelId)).clocks.gameClock!;
    expect(await clock()).toMatchObject({ running: false, ms: 720_000 });
    expect(expectStatus(await post(hook.url, { clock_ms: 300_000 }), 200).applied).toEqual({ gameClock: 300_000 });
    expect(await clock()).toMatchObject({ running: false, ms: 300_000 });
    expect(expectStatus(await post(hook.url, { clock: { running: true } }), 200).applied).toEqual({ gameClock: true });
    const running = await clock();
    expect(running).toMatchObject({ running: true, ms: 300_000 });
    // The clock has to run a while for its stop to show time taken off.
    await sleepUntil(running.at + 200);
    expectStatus(await post(hook.url, { clock: { running: 'false' } }), 200);
    const stopped = await clock();
    expect(stopped.running).toBe(false);
    expect(stopped.ms).toBeLessThanOrEqual(300_000 - 150);
    expect(stopped.ms).toBeGreaterThanOrEqual(300_000 - (Date.now() - running.at) - 50);
    // Time and start in one post: the time is set first, then the clock starts, whatever the order of the fields.
    expectStatus(await post(hook.url, { clock: { running: true }, clock_ms: '90000' }), 200);
    expect(await clock()).toMatchObject({ running: true, ms: 90_000 });
    for (const bad of [1.5, -1, 'soon', { ms: 1 }]) {
      const p = expectProblem(await post(hook.url, { clock_ms: bad }), 400, 'invalid_request');
      expect(p).toMatchObject({ field: 'clock_ms', input: 'gameClock' });
    }
  });

  it('a dry run answers what would apply, changes nothing, fires no event, and is logged as dry', async () => {
    const hook = await addHook({ mapping: { pts: 'scoreA' } });
    const before = stableState(await getState(call, ch.channelId));
    const dry = expectStatus(await post(hook.url, { pts: '5', crowd: 1 }, { query: '?dryRun=1' }), 200);
    expect(dry).toEqual({ frame: null, applied: { scoreA: 5 }, ignored: ['crowd'], dryRun: true });
    expect(stableState(await getState(call, ch.channelId))).toEqual(before);
    expect(await deliveries(hook)).toMatchObject([{ status: 200, applied: { scoreA: 5 }, dryRun: true, error: null }]);
    const wet = expectStatus(await post(hook.url, { pts: 6 }), 200);
    expect(wet.dryRun).not.toBe(true);
    await vi.waitFor(async () => expect(await hookEvents()).toHaveLength(1), { timeout: 15_000 });
    const [event] = await hookEvents();
    expect(event).toMatchObject({ type: 'channel.bind_updated', channelId: ch.channelId });
    expect(event!.data.source).toBe('incoming_webhook');
    expect(JSON.stringify(event!.data)).toContain('scoreA');
    const log = await deliveries(hook);
    expect(log.map((d) => d.dryRun)).toEqual([false, true]);
    expect(log[0]).toMatchObject({ status: 200, applied: { scoreA: 6 }, ignored: [], error: null });
  });
});

describe('signed posts', () => {
  it('accepts a fresh signature over the exact bytes, refuses missing, wrong and stale ones with 401', async () => {
    const hook = await addHook({ requireSignature: true, mapping: { home_score: 'scoreA' } });
    expect(hook.requireSignature).toBe(true);
    expect(hook.secret).toMatch(/^whsec_/);
    const secret = hook.secret!;
    expect(JSON.stringify(await call('GET', `${hooksPath()}/${hook.id}`))).not.toContain(secret);
    const info = expectStatus(
      await api(hook.url, '')<{ requireSignature: boolean }>('GET', '', undefined, { noAuth: true }),
      200,
    );
    expect(info.requireSignature).toBe(true);

    const body = '{"home_score":3}';
    const before = stableState(await getState(call, ch.channelId));
    const refusals: Record<string, string>[] = [
      {},
      { 'x-service-timestamp': nowS() },
      sign('whsec_not_the_secret', nowS(), body),
      sign(secret, nowS(), '{"home_score":4}'),
      sign(secret, nowS(-400), body),
      sign(secret, nowS(400), body),
      {
        ...sign(secret, nowS(), body),
        'x-service-signature': sign(secret, nowS(), body)['x-service-signature']!.slice(3),
      },
    ];
    for (const headers of refusals) {
      expectProblem(await post(hook.url, body, { headers }), 401, 'bad_signature');
    }
    expect(stableState(await getState(call, ch.channelId))).toEqual(before);

    expect(expectStatus(await post(hook.url, body, { headers: sign(secret, nowS(-250), body) }), 200).applied).toEqual({
      scoreA: 3,
    });
    const spaced = '{ "home_score" :  5 ,\n  "note": "hi" }';
    const answer = expectStatus(await post(hook.url, spaced, { headers: sign(secret, nowS(), spaced) }), 200);
    expect(answer).toMatchObject({ applied: { scoreA: 5 }, ignored: ['note'] });
    const compact = JSON.stringify(JSON.parse(spaced));
    expectProblem(await post(hook.url, spaced, { headers: sign(secret, nowS(), compact) }), 401, 'bad_signature');
    expect((await getState(call, ch.channelId)).inputs.scoreA).toBe(5);
    // Refused at the door: not in the log of posts, but in the refusal log, one line per second with a count.
    expect((await deliveries(hook)).map((d) => d.status)).toEqual([200, 200]);
    await vi.waitFor(
      async () => {
        const lines = expectStatus(await call<List<Refusal>>('GET', `${hooksPath()}/${hook.id}/refusals`), 200).data;
        expect(lines.reduce((n, r) => n + r.count, 0)).toBe(refusals.length + 1);
        for (const line of lines) expect([line.status, line.error.split(':')[0]]).toEqual([401, 'bad_signature']);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});

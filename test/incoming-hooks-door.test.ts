/**
 * What an incoming hook's URL refuses before reading a post (docs/incoming-hooks.md, "Rate limits", "Replays",
 * "The hook's log"): every post counts against its channel's updates bucket, refused ones too, so a flood of badly
 * signed posts meets 429 and leaves the hook's log of posts alone (refusals have a log of their own, one line per
 * second); a client address has its own bucket for hook URLs, unknown tokens included; a signed post is taken once
 * (its replay, or a repeat of its X-Service-Delivery, is 409 and applies nothing); a hook whose secret the server
 * cannot open (a restore without secret.key) answers 401 and is logged once; a mapping key that is no field path
 * (`__proto__` first of all) is refused rather than dropped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type ApiResponse,
  type List,
} from './helpers/api.js';
import type { Delivery, HookCreated, Refusal } from './helpers/incoming-hooks.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

async function start(options: Parameters<typeof startTestServer>[0] = {}, env: Record<string, string> = {}) {
  server = await startTestServer(options, env);
  const s = server;
  const call = api(() => s.url, s.key);
  const { channelId } = await createChannelWithScoreboard(call);
  return { server: s, call, channelId };
}

async function addHook(call: Api, channelId: string, body: Record<string, unknown>): Promise<HookCreated> {
  return expectStatus(await call<HookCreated>('POST', `/v1/channels/${channelId}/incoming-hooks`, body), 201);
}

function post(url: string, raw: string, headers: Record<string, string> = {}): Promise<ApiResponse<unknown>> {
  return api(url, '')('POST', '', undefined, { raw, noAuth: true, headers });
}

function sign(secret: string, body: string, ts = String(Math.floor(Date.now() / 1000))): Record<string, string> {
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${body}`).digest('hex');
  return { 'x-service-timestamp': ts, 'x-service-signature': `v1=${mac}` };
}

const logOf = async <T>(call: Api, channelId: string, hookId: string, which: 'deliveries' | 'refusals') =>
  expectStatus(await call<List<T>>('GET', `/v1/channels/${channelId}/incoming-hooks/${hookId}/${which}`), 200).data;

const statuses = (rs: ApiResponse<unknown>[]) =>
  rs.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

describe('the door', () => {
  it('answers a flood of badly signed posts 429 past the bucket; the log of posts keeps the legitimate ones', async () => {
    // The limiter's clock stands still, so the flood falls in one window however slowly this machine sends it.
    let t = Date.now();
    const { call, channelId } = await start({ limiterClock: () => t });
    const hook = await addHook(call, channelId, { requireSignature: true, mapping: { pts: 'scoreA' } });
    for (const pts of [1, 2, 3]) {
      const body = JSON.stringify({ pts });
      expectStatus(await post(hook.url, body, sign(hook.secret!, body)), 200);
    }
    t += 2_000;
    const bad = sign('whsec_not_the_secret', '{"pts":99}');
    const flood = await Promise.all(Array.from({ length: 300 }, () => post(hook.url, '{"pts":99}', bad)));
    // 100 pass the address's bucket, 30 of them the channel's; every other post is refused before it is read.
    expect(statuses(flood)).toEqual({ 401: 30, 429: 270 });
    for (const r of flood.filter((x) => x.status === 429)) {
      expectProblem(r, 429, 'rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    const posts = await logOf<Delivery>(call, channelId, hook.id, 'deliveries');
    expect(posts.map((p) => [p.status, p.applied])).toEqual([
      [200, { scoreA: 3 }],
      [200, { scoreA: 2 }],
      [200, { scoreA: 1 }],
    ]);
    // The refusals past the address's bucket (the 200 refused before the token was looked up belong to no hook):
    // one line per second, each with how many it stands for.
    await vi.waitFor(
      async () => {
        const refused = await logOf<Refusal>(call, channelId, hook.id, 'refusals');
        expect(refused.reduce((n, r) => n + r.count, 0)).toBe(100);
      },
      { timeout: 15_000, interval: 200 },
    );
    const refused = await logOf<Refusal>(call, channelId, hook.id, 'refusals');
    expect(new Set(refused.map((r) => r.at)).size).toBe(refused.length);
    for (const r of refused) {
      expect(r.at).toMatch(/\.000Z$/);
      expect([401, 429]).toContain(r.status);
      expect(r.error).toMatch(/^(bad_signature|rate_limited): /);
      expect(r.payload).toBe('{"pts":99}');
    }
    expect((await getState(call, channelId)).inputs.scoreA).toBe(3);
    t += 2_000;
    const body = JSON.stringify({ pts: 4 });
    expectStatus(await post(hook.url, body, sign(hook.secret!, body)), 200);
    expect((await getState(call, channelId)).inputs.scoreA).toBe(4);
  });

  it('counts requests to hook URLs per client address, unknown tokens included, before looking the token up', async () => {
    const t = Date.now();
    const {
      server: s,
      call,
      channelId,
    } = await start({ limiterClock: () => t }, { ONAIR_LIMIT_HOOK_POSTS_PER_ADDRESS: '5' });
    const hook = await addHook(call, channelId, {});
    const stranger = `${s.url}/v1/hooks/${'A'.repeat(32)}`;
    const guesses = await Promise.all(Array.from({ length: 8 }, () => post(stranger, '{"scoreA":1}')));
    expect(statuses(guesses)).toEqual({ 404: 5, 429: 3 });
    const limited = expectProblem(
      guesses.find((r) => r.status === 429)!,
      429,
      'rate_limited',
    );
    expect(limited.detail).toContain('from this address');
    // The same address's posts to a real hook wait too, and take nothing from the channel's bucket meanwhile.
    expectProblem(await post(hook.url, '{"scoreA":1}'), 429, 'rate_limited');
    expect((await getState(call, channelId)).inputs.scoreA).not.toBe(1);
    expect(await logOf<Refusal>(call, channelId, hook.id, 'refusals')).toEqual([]);
  });
});

describe('replays', () => {
  it('refuses a signed post sent again with 409 and applies nothing: the clock is not rewound', async () => {
    const { call, channelId } = await start();
    const mapping = { clock_ms: 'gameClock', pts: 'scoreA' };
    const hook = await addHook(call, channelId, { requireSignature: true, mapping });
    const secret = hook.secret!;
    const clock = async () => (await getState(call, channelId)).clocks.gameClock!.ms;
    const fiveMinutes = '{"clock_ms":300000}';
    const captured = sign(secret, fiveMinutes);
    expectStatus(await post(hook.url, fiveMinutes, captured), 200);
    const later = '{"clock_ms":120000}';
    expectStatus(await post(hook.url, later, sign(secret, later)), 200);
    expect(await clock()).toBe(120_000);
    const replay = expectProblem(await post(hook.url, fiveMinutes, captured), 409, 'conflict');
    expect(replay.detail).toContain('received before');
    expect(await clock()).toBe(120_000);

    // A dry run takes its signature too: the same bytes sent again for real are a replay.
    const dry = '{"pts":7}';
    const dryHeaders = sign(secret, dry);
    const dryUrl = `${hook.url}?dryRun=1`;
    expect(expectStatus(await post(dryUrl, dry, dryHeaders), 200)).toMatchObject({ dryRun: true });
    expectProblem(await post(hook.url, dry, dryHeaders), 409, 'conflict');
    expect((await getState(call, channelId)).inputs.scoreA).not.toBe(7);

    // A delivery id is taken once: a retry signed afresh under the same id is refused.
    const first = '{"pts":1}';
    expectStatus(await post(hook.url, first, { ...sign(secret, first), 'x-service-delivery': 'd-1' }), 200);
    const retry = '{"pts":2}';
    const again = expectProblem(
      await post(hook.url, retry, { ...sign(secret, retry), 'x-service-delivery': 'd-1' }),
      409,
      'conflict',
    );
    expect(again.detail).toContain('X-Service-Delivery');
    expect((await getState(call, channelId)).inputs.scoreA).toBe(1);
    const badId = { ...sign(secret, retry), 'x-service-delivery': 'has space' };
    expectProblem(await post(hook.url, retry, badId), 400, 'invalid_request');

    // A post refused after the door applied nothing and takes nothing: sent again, it is read again.
    const misfit = '{"pts":"lots"}';
    const misfitHeaders = sign(secret, misfit);
    expectProblem(await post(hook.url, misfit, misfitHeaders), 400, 'invalid_request');
    expectProblem(await post(hook.url, misfit, misfitHeaders), 400, 'invalid_request');

    const refused = await logOf<Refusal>(call, channelId, hook.id, 'refusals');
    expect(refused.some((r) => r.status === 409 && r.error.startsWith('conflict: '))).toBe(true);
    const posts = await logOf<Delivery>(call, channelId, hook.id, 'deliveries');
    expect(posts.map((p) => p.status)).toEqual([400, 400, 200, 200, 200, 200]);
  });
});

describe('a restore without secret.key', () => {
  it("answers a signed hook's posts 401 bad_signature (not 500), logging it once per hook", async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
    const { server: s, call, channelId } = await start({ logger });
    const signed = await addHook(call, channelId, { requireSignature: true, mapping: { pts: 'scoreA' } });
    const open = await addHook(call, channelId, { mapping: { pts: 'scoreB' } });
    const token = (h: HookCreated) => h.url.split('/').pop()!;
    await s.stop();
    fs.rmSync(path.join(s.dir, 'secret.key'));
    await s.restart();
    const url = (h: HookCreated) => `${s.url}/v1/hooks/${token(h)}`;
    for (const pts of [1, 2, 3]) {
      const body = JSON.stringify({ pts });
      const refused = expectProblem(await post(url(signed), body, sign(signed.secret!, body)), 401, 'bad_signature');
      expect(refused.detail).toContain('cannot be read');
    }
    expect((await getState(call, channelId)).inputs.scoreA).not.toBe(1);
    const warnings = lines
      .map((l) => JSON.parse(l) as { level: number; hookId?: string; msg: string })
      .filter((l) => l.hookId === signed.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
    expect(warnings[0]!.msg).toContain('secret.key');
    // Hooks without a signature go on working.
    expectStatus(await post(url(open), '{"pts":5}'), 200);
    expect((await getState(call, channelId)).inputs.scoreB).toBe(5);
  });
});

describe('mapping keys', () => {
  it('refuses __proto__, constructor, prototype and other non-paths, naming them, on create and on PATCH', async () => {
    const { call, channelId } = await start();
    const base = `/v1/channels/${channelId}/incoming-hooks`;
    const raw = (mapping: string) => ({ raw: `{"name":"Feed","mapping":${mapping}}` });
    const proto = expectProblem(
      await call('POST', base, undefined, raw('{"__proto__":"scoreA"}')),
      400,
      'invalid_request',
    );
    expect(errorPaths(proto)).toEqual(['mapping.__proto__']);
    for (const field of ['constructor', 'game.prototype', 'a.__proto__.b']) {
      const p = expectProblem(await call('POST', base, { mapping: { [field]: 'scoreA' } }), 400, 'invalid_request');
      expect(errorPaths(p)).toEqual([`mapping.${field}`]);
    }
    expect(expectStatus(await call<List<HookCreated>>('GET', base), 200).data).toEqual([]);
    const hook = await addHook(call, channelId, { mapping: { pts: 'scoreA' } });
    const patched = expectProblem(
      await call('PATCH', `${base}/${hook.id}`, undefined, raw('{"__proto__":"scoreB","pts":"scoreA"}')),
      400,
      'invalid_request',
    );
    expect(errorPaths(patched)).toEqual(['mapping.__proto__']);
    expect(expectStatus(await call<HookCreated>('GET', `${base}/${hook.id}`), 200).mapping).toEqual({ pts: 'scoreA' });
    // The restrictive mapping still holds: an unmapped field sets nothing.
    expect(expectStatus(await post(hook.url, '{"scoreB":9}', { 'content-type': 'application/json' }), 200)).toEqual({
      frame: null,
      applied: {},
      ignored: ['scoreB'],
    });
  });
});

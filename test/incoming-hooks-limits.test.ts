/**
 * Incoming webhooks at their edges (docs/incoming-hooks.md): the updates bucket a post shares with PATCH …/inputs,
 * 20 hooks per channel, the log of the last 50 posts past the door (failed ones included, payloads capped at 2 KiB;
 * posts refused at the door have their own log), channel-locked
 * keys, and a deleted channel taking its hooks' URLs with it.
 */
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKey, sleepUntil } from './helpers/access-fixtures.js';
import {
  addScoreboard,
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type ApiResponse,
  type Channel,
  type List,
} from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import type { Delivery, HookCreated, Refusal } from './helpers/incoming-hooks.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;

beforeEach(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});

afterEach(async () => {
  await server.dispose();
});

const hooksPath = (channelId: string) => `/v1/channels/${channelId}/incoming-hooks`;

async function addHook(channelId: string, body: Record<string, unknown> = {}): Promise<HookCreated> {
  return expectStatus(await call<HookCreated>('POST', hooksPath(channelId), body), 201);
}

/** A post as a scorekeeper sends it: no Authorization, the raw body text. */
function post(url: string, raw: string, headers: Record<string, string> = {}): Promise<ApiResponse<unknown>> {
  return api(url, '')('POST', '', undefined, {
    raw,
    noAuth: true,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function sign(secret: string, body: string): Record<string, string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const mac = crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${body}`).digest('hex');
  return { 'x-service-timestamp': ts, 'x-service-signature': `v1=${mac}` };
}

/** At most 25 sends in any 1.05 s, so that a long series never meets the channel's 30 updates per second. */
function pacer(): () => Promise<void> {
  const sent: number[] = [];
  return async () => {
    if (sent.length >= 25) await sleepUntil(sent[sent.length - 25]! + 1050);
    sent.push(Date.now());
  };
}

const ok = (rs: ApiResponse<unknown>[]) => rs.filter((r) => r.status < 300);
const refused = (rs: ApiResponse<unknown>[]) => rs.filter((r) => r.status === 429);

describe('the updates bucket', () => {
  it('shares 30 updates per second between hook posts and PATCH …/inputs, with RateLimit-* headers', async () => {
    // Not on air: putting the scene on air would spend one of the channel's updates.
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Quiet' }), 201);
    await addScoreboard(call, channel.id);
    const hook = await addHook(channel.id);
    const hookPosts = Array.from({ length: 25 }, (_, i) => post(hook.url, JSON.stringify({ scoreA: i })));
    const patches = Array.from({ length: 25 }, (_, i) =>
      call('PATCH', `/v1/channels/${channel.id}/inputs`, { scoreB: i }),
    );
    const [hs, ps] = await Promise.all([Promise.all(hookPosts), Promise.all(patches)]);
    const all = [...hs, ...ps];
    expect(ok(all)).toHaveLength(30);
    expect(refused(all)).toHaveLength(20);
    // Both kinds got through: the bucket is shared, not one bucket each.
    expect(ok(hs).length).toBeGreaterThan(0);
    expect(ok(ps).length).toBeGreaterThan(0);
    const remaining = ok(all).map((r) => Number(r.headers.get('ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    for (const r of ok(all)) {
      expect(r.headers.get('ratelimit-limit')).toBe('30');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
    for (const r of refused(all)) {
      expectProblem(r, 429, 'rate_limited');
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.headers.get('ratelimit-limit')).toBe('30');
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
    }
    expectProblem(await post(hook.url, '{"scoreA": 99}'), 429, 'rate_limited');
    expect((await getState(call, channel.id)).inputs.scoreA).not.toBe(99);
  });
});

describe('limits', () => {
  it('holds at most 20 hooks per channel; another channel, or a deletion, makes room', async () => {
    const a = await createChannelWithScoreboard(call, 'A');
    const b = await createChannelWithScoreboard(call, 'B');
    const made: HookCreated[] = [];
    for (let i = 0; i < 20; i++) made.push(await addHook(a.channelId, { name: `hook ${i}` }));
    const full = expectProblem(await call('POST', hooksPath(a.channelId), { name: 'one more' }), 422, 'limit_reached');
    expect(full.detail).toContain('20');
    const list = expectStatus(await call<List<HookCreated>>('GET', hooksPath(a.channelId)), 200);
    expect(list.data).toHaveLength(20);
    await addHook(b.channelId);
    expectStatus(await call('DELETE', `${hooksPath(a.channelId)}/${made[0]!.id}`), 204);
    await addHook(a.channelId, { name: 'replacement' });
  });

  it('logs the last 50 of 55 posts, newest first, failures with status and error, payloads capped at 2 KiB', async () => {
    const { channelId } = await createChannelWithScoreboard(call);
    const hook = await addHook(channelId, { requireSignature: true, mapping: { pts: 'scoreA' } });
    const secret = hook.secret!;
    const pace = pacer();
    const sent: { body: string; status: number }[] = [];
    for (let i = 0; i < 54; i++) {
      await pace();
      const kind = i % 5;
      const body = kind === 2 ? `{"pts": ${i},` : JSON.stringify({ pts: kind === 3 ? `p${i}` : i, seq: i });
      if (kind === 3) {
        // Refused at the door: kept in the refusal log, never in this one.
        expectProblem(await post(hook.url, body), 401, 'bad_signature');
        await pace();
      }
      const res =
        kind === 1
          ? await post(hook.url, body, { ...sign(secret, body), 'content-type': 'text/plain' })
          : await post(hook.url, body, sign(secret, body));
      expect(res.status).toBe([200, 415, 400, 400, 200][kind]);
      sent.push({ body, status: res.status });
    }
    await pace();
    const big = JSON.stringify({ pts: 99, notes: 'x'.repeat(3000) });
    expect(big.length).toBeGreaterThan(2048);
    expectStatus(await post(hook.url, big, sign(secret, big)), 200);
    sent.push({ body: big, status: 200 });

    const res = await call<List<Delivery>>('GET', `${hooksPath(channelId)}/${hook.id}/deliveries`);
    const log = expectStatus(res, 200);
    expect(log.nextCursor).toBeNull();
    expect(log.data).toHaveLength(50);
    const expected = sent.slice(-50).reverse();
    expect(log.data.map((d) => d.status)).toEqual(expected.map((s) => s.status));
    const times = log.data.map((d) => Date.parse(d.at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    for (const [i, d] of log.data.entries()) {
      if (i === 0) continue;
      expect(d.payload, `entry ${i}`).toBe(expected[i]!.body);
      expect(d.dryRun).toBe(false);
      if (d.status === 200) {
        expect(d).toMatchObject({
          error: null,
          applied: { scoreA: (JSON.parse(d.payload) as { pts: number }).pts },
          ignored: ['seq'],
        });
      } else {
        expect(d.applied).toEqual({});
        const code = { 415: 'unsupported_media_type', 400: 'invalid_request' }[d.status];
        expect(d.error, `entry ${i}`).toMatch(new RegExp(`^${code}: \\S`));
      }
    }
    const newest = log.data[0]!;
    expect(newest).toMatchObject({ status: 200, applied: { scoreA: 99 }, ignored: ['notes'] });
    const kept = newest.payload.replace(/…$/, '');
    expect(big.startsWith(kept)).toBe(true);
    expect(Buffer.byteLength(kept, 'utf8')).toBeLessThanOrEqual(2048);
    expect(Buffer.byteLength(kept, 'utf8')).toBeGreaterThan(2040);
    await vi.waitFor(
      async () => {
        const refusals = await call<List<Refusal>>('GET', `${hooksPath(channelId)}/${hook.id}/refusals`);
        expect(expectStatus(refusals, 200).data.reduce((n, r) => n + r.count, 0)).toBe(11);
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});

describe('access and lifetime', () => {
  it("a channel-locked key manages its channel's hooks and gets 404 for another channel's", async () => {
    const a = await createChannelWithScoreboard(call, 'A');
    const b = await createChannelWithScoreboard(call, 'B');
    const onB = await addHook(b.channelId, { mapping: { pts: 'scoreA' } });
    const key = await createKey(call, ['channels:write', 'channels:read'], [a.channelId]);
    const locked = api(server.url, key.secret);
    const own = expectStatus(await locked<HookCreated>('POST', hooksPath(a.channelId), {}), 201);
    expect(own.url).toMatch(/\/v1\/hooks\/[A-Za-z0-9]{32}$/);
    const base = hooksPath(b.channelId);
    const attempts: [string, string, unknown?][] = [
      ['POST', base, {}],
      ['GET', base],
      ['GET', `${base}/${onB.id}`],
      ['PATCH', `${base}/${onB.id}`, { name: 'taken over' }],
      ['DELETE', `${base}/${onB.id}`],
      ['GET', `${base}/${onB.id}/deliveries`],
    ];
    for (const [method, path, body] of attempts) {
      expectProblem(await locked(method, path, body), 404, 'not_found');
    }
    // Nor can it reach B's hook through its own channel's path.
    expectProblem(await locked('GET', `${hooksPath(a.channelId)}/${onB.id}`), 404, 'not_found');
    const still = expectStatus(await call<List<HookCreated>>('GET', base), 200).data;
    expect(still.map((h) => [h.id, h.mapping])).toEqual([[onB.id, { pts: 'scoreA' }]]);
    expectStatus(await post(onB.url, '{"pts": 4}'), 200);
  });

  it('deleting the channel, scene on air and all, deletes its hooks: the URL answers 404', async () => {
    const { channelId } = await createChannelWithScoreboard(call);
    const hook = await addHook(channelId);
    expectStatus(await post(hook.url, '{"scoreA": 1}'), 200);
    expect((await getState(call, channelId)).program).toHaveLength(1);
    expect(expectStatus(await call('DELETE', `/v1/channels/${channelId}`), 204)).toBe('');
    expectProblem(await post(hook.url, '{"scoreA": 2}'), 404, 'not_found');
    expectProblem(await api(hook.url, '')('GET', '', undefined, { noAuth: true }), 404, 'not_found');
    expectProblem(await call('GET', hooksPath(channelId)), 404, 'not_found');
  });
});

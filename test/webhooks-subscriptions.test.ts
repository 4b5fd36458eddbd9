/**
 * Webhook subscriptions (docs/webhooks.md, "Subscribing"): event and channel filters as deliveries show them,
 * a channel-locked key's scope, the secret shown once and never stored in clear, validation, and refused
 * endpoints at save (on a server without ONAIR_WEBHOOK_ALLOW_PRIVATE) and at delivery (DNS rebinding).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFUSED_URLS } from './fixtures/ssrf-urls.js';
import { createKey } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api, type List } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, testCertificate, type Receiver } from './helpers/webhook-receiver.js';
import { SecretBox } from '../src/crypto/secret-box.js';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  channelId: string | null;
  status: string;
  secret?: string;
}

const ALL_TYPES = [
  'channel.bind_updated',
  'channel.cleared',
  'channel.played',
  'channel.scene_loaded',
  'channel.trigger_fired',
];

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
  for (const r of receivers.splice(0)) await r.close();
});

async function setup(env: Record<string, string> = { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' }, options = {}) {
  const { cert } = await testCertificate();
  const server = await startTestServer({ webhookCa: cert, ...options }, env);
  servers.push(server);
  return { server, call: api(() => server.url, server.key) };
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver(200);
  receivers.push(r);
  return r;
}

const subscribe = async (call: Api, body: Record<string, unknown>) =>
  expectStatus(await call<Subscription>('POST', '/v1/webhooks', body), 201);

/** Cut to air, a patch (with its bound trigger), a clear, a cue and take: all five types on one channel. */
async function show(call: Api, channelId: string, sceneId: string) {
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 3 }), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/clear`), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/preview`, { sceneId }), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/take`), 200);
}

const typesOf = (r: Receiver) => [...new Set(r.received.map((g) => g.json.type))].sort();

describe('filters', () => {
  it('an empty list gets every type, an explicit list exactly its types, a channel filter only that channel', async () => {
    const { call } = await setup();
    const [every, some, one] = [await receiver(), await receiver(), await receiver()];
    const a = await createChannelWithScoreboard(call, 'A');
    const b = await createChannelWithScoreboard(call, 'B');
    await subscribe(call, { url: every.url, events: [] });
    await subscribe(call, { url: some.url, events: ['channel.played', 'channel.cleared'] });
    await subscribe(call, { url: one.url, channelId: b.channelId });
    await show(call, a.channelId, a.sceneId);
    await show(call, b.channelId, b.sceneId);
    // Each receiver's wanted deliveries first, however long a busy machine takes; then a moment for anything a
    // filter should have kept out (it would have been queued with them).
    await vi.waitFor(() => expect(typesOf(every)).toEqual(ALL_TYPES), { timeout: 15_000 });
    await vi.waitFor(() => expect(one.received.length).toBeGreaterThanOrEqual(5), { timeout: 15_000 });
    await vi.waitFor(() => expect(typesOf(one)).toEqual(ALL_TYPES), { timeout: 15_000 });
    await vi.waitFor(
      () => expect(new Set(every.received.map((g) => g.json.channelId))).toEqual(new Set([a.channelId, b.channelId])),
      { timeout: 15_000 },
    );
    await vi.waitFor(() => expect(some.received.filter((g) => g.json.type === 'channel.played')).toHaveLength(2), {
      timeout: 15_000,
    });
    await vi.waitFor(() => expect(typesOf(some)).toEqual(['channel.cleared', 'channel.played']), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new Set(every.received.map((g) => g.json.channelId))).toEqual(new Set([a.channelId, b.channelId]));
    expect(typesOf(some)).toEqual(['channel.cleared', 'channel.played']);
    expect(some.received.filter((g) => g.json.type === 'channel.played')).toHaveLength(2);
    expect(typesOf(one)).toEqual(ALL_TYPES);
    expect(new Set(one.received.map((g) => g.json.channelId))).toEqual(new Set([b.channelId]));
  });

  it('a channel-locked key sees, manages and creates only subscriptions on its channels', async () => {
    const { server, call } = await setup();
    const r = await receiver();
    const mine = await createChannelWithScoreboard(call, 'Mine');
    const other = await createChannelWithScoreboard(call, 'Other');
    const wide = await subscribe(call, { url: r.url });
    const onOther = await subscribe(call, { url: r.url, channelId: other.channelId });
    const key = await createKey(call, ['webhooks:manage'], [mine.channelId]);
    const locked = api(() => server.url, key.secret);
    expectProblem(await locked('POST', '/v1/webhooks', { url: r.url }), 403, 'forbidden');
    expectProblem(
      await locked('POST', '/v1/webhooks', { url: r.url, channelId: other.channelId }),
      400,
      'invalid_request',
    );
    const own = await subscribe(locked, { url: r.url, channelId: mine.channelId });
    const list = expectStatus(await locked<List<Subscription>>('GET', '/v1/webhooks'), 200);
    expect(list.data.map((s) => s.id)).toEqual([own.id]);
    for (const hidden of [wide.id, onOther.id]) {
      expectProblem(await locked('GET', `/v1/webhooks/${hidden}`), 404, 'not_found');
      expectProblem(await locked('DELETE', `/v1/webhooks/${hidden}`), 404, 'not_found');
      expectProblem(await locked('GET', `/v1/webhooks/${hidden}/deliveries`), 404, 'not_found');
      expectProblem(await locked('POST', `/v1/webhooks/${hidden}/ping`), 404, 'not_found');
    }
    expect(expectStatus(await call<List<Subscription>>('GET', '/v1/webhooks'), 200).data).toHaveLength(3);
    const reader = api(() => server.url, (await createKey(call, ['channels:read'])).secret);
    expectProblem(await reader('GET', '/v1/webhooks'), 403, 'forbidden');
    expect(expectStatus(await locked('DELETE', `/v1/webhooks/${own.id}`), 204)).toBe('');
    expectProblem(await call('GET', `/v1/webhooks/${own.id}`), 404, 'not_found');
  });
});

describe('subscriptions', () => {
  it('shows the secret once, never in a read, and never stores it in clear', async () => {
    const { server, call } = await setup();
    const r = await receiver();
    const created = await subscribe(call, { url: `${r.url}/in`, description: 'score feed' });
    expect(created.secret).toMatch(/^whsec_/);
    const read = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${created.id}`), 200);
    expect(read).not.toHaveProperty('secret');
    expect({ ...read, secret: created.secret }).toEqual(created);
    const list = expectStatus(await call<List<Subscription>>('GET', '/v1/webhooks'), 200);
    expect(JSON.stringify(list)).not.toContain(created.secret!);
    await server.stop();
    const files = fs.readdirSync(server.dir).filter((f) => f.startsWith('onair.db'));
    expect(files).toContain('onair.db');
    const secretBytes = Buffer.from(created.secret!);
    const tail = Buffer.from(created.secret!.slice('whsec_'.length));
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(server.dir, f));
      expect(bytes.includes(secretBytes)).toBe(false);
      expect(bytes.includes(tail)).toBe(false);
    }
    // The key that seals secrets sits beside the database, readable by its owner only.
    expect(fs.statSync(path.join(server.dir, 'secret.key')).mode & 0o077).toBe(0);
  });

  it('keeps working after a restart: same secret, deliveries signed with it', async () => {
    const { server, call } = await setup();
    const r = await receiver();
    const created = await subscribe(call, { url: r.url, events: ['channel.bind_updated'] });
    const { channelId } = await createChannelWithScoreboard(call);
    await server.restart();
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 9 }), 200);
    await vi.waitFor(() => expect(r.received).toHaveLength(1), { timeout: 15_000 });
    const { verifyDelivery } = await import('./helpers/webhook-receiver.js');
    expect(verifyDelivery(r.received[0]!, created.secret!)).toBeNull();
  });

  it('refuses bad bodies with the field named, and more than 50 subscriptions with limit_reached', async () => {
    const { call } = await setup();
    const r = await receiver();
    expectProblem(await call('POST', '/v1/webhooks', {}), 400, 'invalid_request');
    expectProblem(
      await call('POST', '/v1/webhooks', { url: r.url, events: ['channel.exploded'] }),
      400,
      'invalid_request',
    );
    expectProblem(await call('POST', '/v1/webhooks', { url: r.url, secret: 'mine' }), 400, 'invalid_request');
    expectProblem(await call('POST', '/v1/webhooks', { url: r.url, channelId: 'ch_nope' }), 400, 'invalid_request');
    expectProblem(await call('GET', '/v1/webhooks/wh_nope'), 404, 'not_found');
    for (let i = 0; i < 50; i++) await subscribe(call, { url: `${r.url}/${i}` });
    const full = expectProblem(await call('POST', '/v1/webhooks', { url: r.url }), 422, 'limit_reached');
    expect(full.detail).toContain('50');
  });
});

describe('refused endpoints', () => {
  it(`refuses ${REFUSED_URLS.length} private, local and disguised URLs at save with 422 endpoint_refused`, async () => {
    // The creates bucket allows 60 a minute: the table goes through in rounds on fresh servers.
    const { call } = await setup({});
    let current = call;
    let used = 0;
    for (const { url, why } of REFUSED_URLS) {
      if (used === 55) {
        current = (await setup({})).call;
        used = 0;
      }
      used++;
      const res = await current('POST', '/v1/webhooks', { url });
      if (res.status === 400) continue; // not even a URL string the API takes (length, type)
      const problem = expectProblem(res, 422, 'endpoint_refused');
      expect(problem.detail, `${url} (${why})`).toMatch(/^This endpoint is refused: /);
    }
    expect(expectStatus(await call<List<Subscription>>('GET', '/v1/webhooks'), 200).data).toEqual([]);
  });

  it('answers one detail for every refused host, whether its name does not resolve, is private or is refused', async () => {
    const answers: Record<string, string[] | 'ENOTFOUND'> = {
      'nowhere.example.com': 'ENOTFOUND',
      'empty.example.com': [],
      'intranet.example.com': ['10.0.0.5'],
      'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
    };
    const resolve = async (host: string) => {
      const answer = answers[host] ?? ['93.184.216.34'];
      if (answer === 'ENOTFOUND')
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return answer.map((address) => ({ address, family: 4 as const }));
    };
    const { call } = await setup({}, { webhookResolve: resolve });
    const refusals = [];
    for (const host of [...Object.keys(answers), 'db.corp.internal', 'intranet', '10.0.0.5', '[::1]']) {
      const problem = expectProblem(
        await call('POST', '/v1/webhooks', { url: `https://${host}/in` }),
        422,
        'endpoint_refused',
      );
      refusals.push({ detail: problem.detail, reason: problem.reason, errors: problem.errors });
    }
    expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(refusals[0]!.detail).not.toMatch(/resolve\b.*\bnot|private|loopback|\.internal/);
  });

  it('refuses user names, passwords, backslashes, control characters and port 0 at save, even for test servers', async () => {
    const { call } = await setup();
    for (const url of [
      'https://user:pass@hooks.example.com/',
      'https://127.0.0.1@1.1.1.1/',
      'https://hooks.example.com\\in',
      'https://hooks.example.com/in\n',
      'https://hooks.example.com:0/in',
    ]) {
      expectProblem(await call('POST', '/v1/webhooks', { url }), 422, 'endpoint_refused');
    }
  });

  it('refuses at delivery a URL with credentials saved before the rule, sending nothing', async () => {
    const r = await receiver();
    const { server, call } = await setup();
    const { channelId } = await createChannelWithScoreboard(call);
    const orgId = (await server.handle.store.defaultOrg()).id;
    const { box } = SecretBox.open(undefined, server.dir);
    const id = 'wh_0000000000000000000000000000cafe';
    await server.handle.store.webhooks.insertSubscription({
      id,
      orgId,
      url: `https://user:pass@127.0.0.1:${r.port}/in`,
      events: [],
      channelId: null,
      description: null,
      sealedSecret: box.seal('whsec_old', id),
      previousSecret: null,
      status: 'enabled',
      consecutiveFailures: 0,
      lastError: null,
      disabledAt: null,
      createdAt: new Date().toISOString(),
    });
    await server.restart();
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    await vi.waitFor(
      async () => {
        const log = expectStatus(await call<List<{ error: string }>>('GET', `/v1/webhooks/${id}/deliveries`), 200);
        expect(log.data[0]?.error).toBe('endpoint refused: the URL must not contain a user name or password');
      },
      { timeout: 5000 },
    );
    expect(r.received).toHaveLength(0);
  });

  it('logs the same error at delivery whether the name stopped resolving or now resolves to a private address', async () => {
    const r = await receiver();
    const answers = new Map<string, string>();
    const resolve = async (host: string) => {
      const answer = answers.get(host) ?? '93.184.216.34';
      if (answer === 'ENOTFOUND') throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      return [{ address: answer, family: 4 as const }];
    };
    const { call } = await setup({}, { webhookResolve: resolve });
    const gone = await subscribe(call, {
      url: `https://gone.example.com:${r.port}/in`,
      events: ['channel.bind_updated'],
    });
    const inside = await subscribe(call, {
      url: `https://inside.example.com:${r.port}/in`,
      events: ['channel.bind_updated'],
    });
    answers.set('gone.example.com', 'ENOTFOUND');
    answers.set('inside.example.com', '10.0.0.7');
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    const errorOf = async (id: string) => {
      const log = expectStatus(await call<List<{ error: string }>>('GET', `/v1/webhooks/${id}/deliveries`), 200);
      expect(log.data.length).toBeGreaterThan(0);
      return log.data[0]!.error;
    };
    const errors = await vi.waitFor(async () => [await errorOf(gone.id), await errorOf(inside.id)], { timeout: 5000 });
    expect(errors[0]).toMatch(/^endpoint refused: /);
    expect(errors[1]).toBe(errors[0]);
    expect(r.received).toHaveLength(0);
  });

  it('refuses at delivery a name that resolved to a public address when saved and to loopback since', async () => {
    const r = await receiver();
    let answer = '93.184.216.34';
    const resolve = async () => [{ address: answer, family: 4 as const }];
    const { call } = await setup({}, { webhookResolve: resolve });
    const sub = await subscribe(call, { url: `https://hooks.test:${r.port}/in`, events: ['channel.bind_updated'] });
    answer = '127.0.0.1';
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    await vi.waitFor(
      async () => {
        const log = expectStatus(await call<List<{ error: string }>>('GET', `/v1/webhooks/${sub.id}/deliveries`), 200);
        expect(log.data.length).toBeGreaterThan(0);
        expect(log.data[0]!.error).toMatch(/^endpoint refused/);
      },
      { timeout: 15_000 },
    );
    expect(r.received).toHaveLength(0);
  });
});

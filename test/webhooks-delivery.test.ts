/**
 * Outgoing webhooks end to end (docs/webhooks.md): the real server, a real local HTTPS receiver whose
 * certificate the server is told to trust, and a verifier written from the documentation's words.
 * ONAIR_WEBHOOK_ALLOW_PRIVATE=1 lets the server reach 127.0.0.1, as it must for a local receiver.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Api, type Event, type List } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  startReceiver,
  testCertificate,
  verifyDelivery,
  type Answer,
  type Receiver,
} from './helpers/webhook-receiver.js';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  channelId: string | null;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
  lastError: { at: string; message: string; status: number | null } | null;
  disabledAt: string | null;
  secret?: string;
}

interface Attempt {
  eventId: string;
  type: string;
  attempt: number;
  outcome: 'succeeded' | 'failed' | 'dropped';
  status: number | null;
  error: string | null;
  durationMs: number | null;
  at: string;
}

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
  for (const r of receivers.splice(0)) await r.close();
});

async function setup(env: Record<string, string> = {}) {
  const { cert } = await testCertificate();
  const server = await startTestServer(
    { webhookCa: cert },
    { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1', ONAIR_WEBHOOK_RETRY_DELAYS_MS: '200,200', ...env },
  );
  servers.push(server);
  return { server, call: api(() => server.url, server.key) };
}

async function receiver(fallback: Answer = 200): Promise<Receiver> {
  const r = await startReceiver(fallback);
  receivers.push(r);
  return r;
}

async function subscribe(call: Api, body: Record<string, unknown>): Promise<Subscription & { secret: string }> {
  return expectStatus(await call<Subscription & { secret: string }>('POST', '/v1/webhooks', body), 201);
}

async function attempts(call: Api, id: string): Promise<Attempt[]> {
  return expectStatus(await call<List<Attempt>>('GET', `/v1/webhooks/${id}/deliveries?limit=100`), 200).data;
}

/** A full show on one channel: cut to air, a patch that fires the bound trigger, a cue and take, a clear. */
async function runShow(call: Api) {
  const { channelId, sceneId } = await createChannelWithScoreboard(call);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/clear`), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/preview`, { sceneId }), 200);
  expectStatus(await call('POST', `/v1/channels/${channelId}/take`), 200);
  return { channelId, sceneId };
}

async function allEvents(call: Api): Promise<Event[]> {
  return expectStatus(await call<List<Event>>('GET', '/v1/events?limit=100'), 200).data;
}

describe('delivery', () => {
  it('delivers every event, signed, with the documented headers and the envelope of GET /v1/events', async () => {
    const { server, call } = await setup();
    const r = await receiver();
    const sub = await subscribe(call, { url: `${r.url}/hooks` });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await runShow(call);
    const events = await allEvents(call);
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([
        'channel.scene_loaded',
        'channel.played',
        'channel.bind_updated',
        'channel.trigger_fired',
        'channel.cleared',
      ]),
    );
    await vi.waitFor(() => expect(r.received).toHaveLength(events.length), { timeout: 15_000 });
    const { version } = expectStatus(await call<{ version: string }>('GET', '/healthz'), 200);
    for (const got of r.received) {
      expect(verifyDelivery(got, sub.secret)).toBeNull();
      expect(got.path).toBe('/hooks');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toBe(`onair-webhooks/${version}`);
      expect(got.headers['x-service-event']).toBe(got.json.type);
      expect(got.headers['x-service-delivery']).toBe(got.json.id);
      expect(Object.keys(got.json)).toEqual(['id', 'type', 'orgId', 'channelId', 'createdAt', 'data']);
    }
    const byId = new Map(r.received.map((g) => [g.json.id, g.json]));
    for (const e of events) expect(byId.get(e.id)).toEqual(e);
    // A wrong secret does not verify: the verifier can fail.
    expect(verifyDelivery(r.received[0]!, `${sub.secret}x`)).toBe('signature mismatch');
    const log = await attempts(call, sub.id);
    expect(log.every((a) => a.outcome === 'succeeded' && a.status === 200 && a.attempt === 1)).toBe(true);
    expect(log).toHaveLength(events.length);
    const metrics = expectStatus(await call<string>('GET', '/metrics'), 200);
    expect(metrics).toContain(`onair_webhook_deliveries_total{outcome="succeeded"} ${events.length}`);
    expect(metrics).toMatch(/onair_webhook_attempt_duration_seconds_count \d+/);
    expect(metrics).toContain('onair_webhook_outbox_depth{kind="deliveries"} 0');
    expect(server.handle.port).toBeGreaterThan(0);
  });

  it('tries a failing endpoint 3 times a few seconds apart, under one delivery id with a fresh timestamp', async () => {
    const { call } = await setup({ ONAIR_WEBHOOK_RETRY_DELAYS_MS: '1100,1100' });
    const r = await receiver(500);
    const sub = await subscribe(call, { url: r.url, events: ['channel.bind_updated'] });
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreB: 2 }), 200);
    // Three attempts 1.1 s apart: 2.2 s on an idle machine, plus a server and a receiver sharing a busy one.
    await vi.waitFor(() => expect(r.received).toHaveLength(3), { timeout: 20_000 });
    // No fourth: it would have come 1.1 s after the third.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.received).toHaveLength(3);
    const ids = new Set(r.received.map((g) => g.headers['x-service-delivery']));
    expect(ids.size).toBe(1);
    const stamps = r.received.map((g) => Number(g.headers['x-service-timestamp']));
    expect(stamps[1]!).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]!).toBeGreaterThan(stamps[1]!);
    expect(r.received[1]!.at - r.received[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(r.received[2]!.at - r.received[1]!.at).toBeGreaterThanOrEqual(1000);
    for (const got of r.received) expect(verifyDelivery(got, sub.secret)).toBeNull();
    // The third result is written after the receiver answered it.
    const log = await vi.waitFor(
      async () => {
        const log = await attempts(call, sub.id);
        expect(log.map((a) => [a.attempt, a.outcome, a.status])).toEqual([
          [1, 'failed', 500],
          [2, 'failed', 500],
          [3, 'failed', 500],
        ]);
        return log;
      },
      { timeout: 15_000 },
    );
    expect(log[0]!.error).toMatch(/^HTTP 500/);
    const after = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${sub.id}`), 200);
    expect(after).toMatchObject({ status: 'enabled', consecutiveFailures: 3, lastError: null });
  });

  it('disables after 20 consecutive failed attempts, drops what was pending, and a success in between resets', async () => {
    const { call } = await setup({ ONAIR_WEBHOOK_RETRY_DELAYS_MS: '0,0' });
    const r = await receiver(503);
    const sub = await subscribe(call, { url: r.url, events: ['channel.bind_updated'] });
    const { channelId } = await createChannelWithScoreboard(call);
    const patch = async (n: number) =>
      expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
    // 6 events × 3 attempts = 18 failures; then one success resets the count.
    for (let n = 1; n <= 6; n++) await patch(n);
    await vi.waitFor(() => expect(r.received).toHaveLength(18), { timeout: 15_000 });
    r.answers.push(200);
    await patch(7);
    await vi.waitFor(
      async () => {
        const s = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${sub.id}`), 200);
        expect(s.consecutiveFailures).toBe(0);
      },
      { timeout: 15_000 },
    );
    // Now 20 more failures: 7 events × 3 attempts, the subscription switches off at the 20th.
    for (let n = 8; n <= 14; n++) await patch(n);
    await vi.waitFor(
      async () => {
        const s = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${sub.id}`), 200);
        expect(s.status).toBe('disabled');
      },
      { timeout: 15_000 },
    );
    // Attempts still in flight at the switch-off finish and are logged: count once every attempt received is.
    await vi.waitFor(
      async () =>
        expect((await attempts(call, sub.id)).filter((a) => a.outcome === 'failed')).toHaveLength(
          r.received.length - 1,
        ),
      { timeout: 15_000 },
    );
    const s = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${sub.id}`), 200);
    expect(s.consecutiveFailures).toBe(20);
    expect(s.lastError?.status).toBe(503);
    expect(s.lastError?.message).toMatch(/^HTTP 503/);
    expect(Date.parse(s.disabledAt!)).toBeGreaterThan(0);
    const count = r.received.length;
    // Attempts already in flight when the 20th failure is written (up to 7 of the subscription's 8 slots) finish.
    expect(count).toBeLessThanOrEqual(19 + 20 + 7);
    await patch(99);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received.length).toBe(count);
    const log = await attempts(call, s.id);
    expect(log.filter((a) => a.outcome === 'failed')).toHaveLength(count - 1);
  });

  it('does not follow a redirect: it is a failed attempt and the other address gets nothing', async () => {
    const { call } = await setup({ ONAIR_WEBHOOK_RETRY_DELAYS_MS: '0' });
    const elsewhere = await receiver();
    const r = await receiver({ status: 307, location: `${elsewhere.url}/stolen` });
    const sub = await subscribe(call, { url: r.url, events: ['channel.bind_updated'] });
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    await vi.waitFor(async () => expect(await attempts(call, sub.id)).toHaveLength(2), { timeout: 15_000 });
    const log = await attempts(call, sub.id);
    expect(log.map((a) => [a.outcome, a.status])).toEqual([
      ['failed', 307],
      ['failed', 307],
    ]);
    expect(log[0]!.error).toContain('redirects are not followed');
    expect(elsewhere.received).toHaveLength(0);
  });

  it('keeps delivering to a healthy endpoint while another never answers', async () => {
    const { call } = await setup({ ONAIR_WEBHOOK_TIMEOUT_MS: '60000' });
    const dead = await receiver('hang');
    const healthy = await receiver();
    await subscribe(call, { url: dead.url, events: ['channel.bind_updated'] });
    await subscribe(call, { url: healthy.url, events: ['channel.bind_updated'] });
    const { channelId } = await createChannelWithScoreboard(call);
    // 20 events, under the channel's 30 updates a second.
    for (let n = 1; n <= 20; n++) {
      expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
    }
    await vi.waitFor(() => expect(healthy.received).toHaveLength(20), { timeout: 15_000 });
    // The dead endpoint holds a bounded number of attempts open, not one per event.
    await vi.waitFor(() => expect(dead.received.length).toBeGreaterThan(0), { timeout: 15_000 });
    expect(dead.received.length).toBeLessThanOrEqual(8);
  });

  it('pings: a signed webhook.ping now, logged, not counted towards disabling', async () => {
    const { call } = await setup();
    const r = await receiver(500);
    const sub = await subscribe(call, { url: r.url });
    const ping = expectStatus(
      await call<{ ok: boolean; status: number; error: string | null }>('POST', `/v1/webhooks/${sub.id}/ping`),
      200,
    );
    expect(ping).toMatchObject({ ok: false, status: 500 });
    expect(ping.error).toMatch(/^HTTP 500/);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.json).toMatchObject({ type: 'webhook.ping', data: { webhookId: sub.id } });
    expect(verifyDelivery(r.received[0]!, sub.secret)).toBeNull();
    r.fallback = 200;
    const ok = expectStatus(await call<{ ok: boolean }>('POST', `/v1/webhooks/${sub.id}/ping`), 200);
    expect(ok.ok).toBe(true);
    expect((await attempts(call, sub.id)).map((a) => [a.type, a.outcome])).toEqual([
      ['webhook.ping', 'failed'],
      ['webhook.ping', 'succeeded'],
    ]);
    const s = expectStatus(await call<Subscription>('GET', `/v1/webhooks/${sub.id}`), 200);
    expect(s.consecutiveFailures).toBe(0);
  });
});

/**
 * Rolling a webhook's signing secret (docs/webhooks.md, "Rolling the secret"): a new secret shown once, the old one
 * still signing beside it for the overlap (two `v1=` signatures, the new one first), then only the new one; kept
 * sealed across a restart; the same permission, lock and bucket rules as the other webhook routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKey } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  signaturesOf,
  startReceiver,
  testCertificate,
  verifyDelivery,
  type Received,
  type Receiver,
} from './helpers/webhook-receiver.js';

interface Webhook {
  id: string;
  status: string;
  previousSecretExpiresAt: string | null;
  secret?: string;
}

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
  for (const r of receivers.splice(0)) await r.close();
});

async function setup() {
  const { cert } = await testCertificate();
  const server = await startTestServer(
    { webhookCa: cert },
    { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1', ONAIR_WEBHOOK_RETRY_DELAYS_MS: '100,100' },
  );
  servers.push(server);
  const call = api(() => server.url, server.key);
  const r = await startReceiver(200);
  receivers.push(r);
  const channel = await createChannelWithScoreboard(call);
  const created = expectStatus(
    await call<Webhook & { secret: string }>('POST', '/v1/webhooks', {
      url: `${r.url}/in`,
      channelId: channel.channelId,
    }),
    201,
  );
  /** Makes one event and answers its delivery. */
  let score = 0;
  const deliver = async (): Promise<Received> => {
    const before = r.received.length;
    expectStatus(await call('PATCH', `/v1/channels/${channel.channelId}/inputs`, { scoreA: ++score }), 200);
    await vi.waitFor(() => expect(r.received.length).toBeGreaterThan(before), { timeout: 10_000 });
    return r.received[r.received.length - 1]!;
  };
  return { server, call, r, created, channel, deliver };
}

const roll = async (call: Api, id: string, body?: Record<string, unknown>) =>
  expectStatus(await call<Webhook & { secret: string }>('POST', `/v1/webhooks/${id}/secret`, body), 200);

describe('rolling a webhook secret', () => {
  it('signs with the new and the old secret during the overlap, then with the new one only', async () => {
    const { call, created, deliver } = await setup();
    const rolled = await roll(call, created.id, { overlapSeconds: 3 });
    expect(rolled.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rolled.secret).not.toBe(created.secret);
    const expiry = Date.parse(rolled.previousSecretExpiresAt!);
    expect(expiry).toBeGreaterThan(Date.now() + 1_000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 3_000);
    const read = expectStatus(await call<Webhook>('GET', `/v1/webhooks/${created.id}`), 200);
    expect(read).not.toHaveProperty('secret');
    expect(read.previousSecretExpiresAt).toBe(rolled.previousSecretExpiresAt);

    const during = await deliver();
    expect(signaturesOf(during)).toHaveLength(2);
    expect(verifyDelivery(during, rolled.secret)).toBeNull();
    expect(verifyDelivery(during, created.secret)).toBeNull();
    expect(verifyDelivery(during, 'whsec_someone_else')).toBe('signature mismatch');
    // The new secret's signature comes first.
    expect(
      verifyDelivery(
        { ...during, headers: { ...during.headers, 'x-service-signature': signaturesOf(during)[0]! } },
        rolled.secret,
      ),
    ).toBeNull();

    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(expiry), { timeout: 5_000, interval: 100 });
    const after = await deliver();
    expect(signaturesOf(after)).toHaveLength(1);
    expect(verifyDelivery(after, rolled.secret)).toBeNull();
    expect(verifyDelivery(after, created.secret)).toBe('signature mismatch');
    expect(
      expectStatus(await call<Webhook>('GET', `/v1/webhooks/${created.id}`), 200).previousSecretExpiresAt,
    ).toBeNull();
  });

  it('keeps the old secret a day by default, none with an overlap of 0, and only the last one replaced', async () => {
    const { call, created, deliver } = await setup();
    const first = await roll(call, created.id);
    const day = Date.parse(first.previousSecretExpiresAt!) - Date.now();
    expect(day).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(day).toBeLessThanOrEqual(24 * 3600_000);
    const second = await roll(call, created.id, { overlapSeconds: 600 });
    const both = await deliver();
    expect(verifyDelivery(both, second.secret)).toBeNull();
    expect(verifyDelivery(both, first.secret)).toBeNull();
    // A second roll ends the first overlap: the original secret signs no more.
    expect(verifyDelivery(both, created.secret)).toBe('signature mismatch');
    const third = await roll(call, created.id, { overlapSeconds: 0 });
    expect(third.previousSecretExpiresAt).toBeNull();
    const only = await deliver();
    expect(signaturesOf(only)).toHaveLength(1);
    expect(verifyDelivery(only, third.secret)).toBeNull();
    expectProblem(
      await call('POST', `/v1/webhooks/${created.id}/secret`, { overlapSeconds: -1 }),
      400,
      'invalid_request',
    );
    expectProblem(
      await call('POST', `/v1/webhooks/${created.id}/secret`, { overlapSeconds: 8 * 24 * 3600 }),
      400,
      'invalid_request',
    );
    expectProblem(await call('POST', `/v1/webhooks/${created.id}/secret`, { secret: 'mine' }), 400, 'invalid_request');
  });

  it('keeps both secrets sealed across a restart, and pings with both', async () => {
    const { server, call, r, created, deliver } = await setup();
    const rolled = await roll(call, created.id, { overlapSeconds: 600 });
    await server.restart();
    const delivered = await deliver();
    expect(verifyDelivery(delivered, rolled.secret)).toBeNull();
    expect(verifyDelivery(delivered, created.secret)).toBeNull();
    const ping = expectStatus(await call<{ ok: boolean }>('POST', `/v1/webhooks/${created.id}/ping`), 200);
    expect(ping.ok).toBe(true);
    const pinged = r.received[r.received.length - 1]!;
    expect(pinged.json.type).toBe('webhook.ping');
    expect(verifyDelivery(pinged, rolled.secret)).toBeNull();
    expect(verifyDelivery(pinged, created.secret)).toBeNull();
    await server.stop();
    for (const f of fs.readdirSync(server.dir).filter((name) => name.startsWith('onair.db'))) {
      const bytes = fs.readFileSync(path.join(server.dir, f));
      for (const secret of [created.secret, rolled.secret]) {
        expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length)))).toBe(false);
      }
    }
  });

  it('needs webhooks:manage, honours channel locks, and rolls a disabled subscription too', async () => {
    const { server, call, r, created, channel } = await setup();
    const reader = api(() => server.url, (await createKey(call, ['channels:read'])).secret);
    expectProblem(await reader('POST', `/v1/webhooks/${created.id}/secret`), 403, 'forbidden');
    const other = await createChannelWithScoreboard(call, 'Other');
    const locked = api(() => server.url, (await createKey(call, ['webhooks:manage'], [other.channelId])).secret);
    expectProblem(await locked('POST', `/v1/webhooks/${created.id}/secret`), 404, 'not_found');
    const mine = api(() => server.url, (await createKey(call, ['webhooks:manage'], [channel.channelId])).secret);
    expect((await roll(mine, created.id)).secret).toMatch(/^whsec_/);
    expectProblem(await call('POST', '/v1/webhooks/wh_0000000000000000000000000000beef/secret'), 404, 'not_found');

    // 20 failures disable it; a roll still answers a new secret (and nothing is delivered: it stays disabled).
    r.fallback = 500;
    for (let i = 0; i < 7; i++) {
      expectStatus(await call('PATCH', `/v1/channels/${channel.channelId}/inputs`, { scoreB: i }), 200);
    }
    await vi.waitFor(
      async () =>
        expect(expectStatus(await call<Webhook>('GET', `/v1/webhooks/${created.id}`), 200).status).toBe('disabled'),
      { timeout: 20_000 },
    );
    const rolled = await roll(call, created.id);
    expect(rolled.status).toBe('disabled');
    expect(rolled.secret).toMatch(/^whsec_/);
  }, 40_000);
});

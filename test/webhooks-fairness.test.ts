/**
 * Fair delivery (docs/webhooks.md, "Fair delivery"): one workspace's endpoints that never answer do not delay
 * another workspace's deliveries, whether they share its host or not; a connection that does not complete gives
 * up after the connect timeout, well before the response timeout; an endpoint that keeps timing out is sent one
 * attempt at a time. The real server, real HTTPS receivers on 127.0.0.1, a second workspace with its own key.
 */
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newWorkspace, setupOwner } from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Api, type List } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, testCertificate, type Receiver } from './helpers/webhook-receiver.js';

interface Attempt {
  outcome: string;
  error: string | null;
  durationMs: number | null;
}

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
const tarpits: { server: net.Server; sockets: net.Socket[] }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
  for (const r of receivers.splice(0)) await r.close();
  for (const t of tarpits.splice(0)) {
    for (const socket of t.sockets) socket.destroy();
    await new Promise((resolve) => t.server.close(resolve));
  }
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

async function receiver(): Promise<Receiver> {
  const r = await startReceiver(200);
  receivers.push(r);
  return r;
}

const subscribe = async (call: Api, url: string) =>
  expectStatus(await call<{ id: string }>('POST', '/v1/webhooks', { url, events: ['channel.bind_updated'] }), 201);

const attempts = async (call: Api, id: string) =>
  expectStatus(await call<List<Attempt>>('GET', `/v1/webhooks/${id}/deliveries?limit=100`), 200).data;

describe('fair delivery', () => {
  it("keeps another workspace's deliveries within 3 s while 20 endpoints of one workspace never answer", async () => {
    const { server, call } = await setup();
    const shared = await receiver();
    const other = await receiver();
    shared.route = (path) => (path.startsWith('/hang/') ? 'hang' : undefined);
    const tarpitted = await createChannelWithScoreboard(call, 'Tarpits');
    for (let i = 0; i < 20; i++) await subscribe(call, `${shared.url}/hang/${i}`);
    const owner = await setupOwner(server);
    const second = await newWorkspace(server.url, owner);
    const healthy = await createChannelWithScoreboard(second.call, 'Healthy');
    // One endpoint on the tarpits' host (a shared service), one on a host of its own.
    await subscribe(second.call, `${shared.url}/ok`);
    await subscribe(second.call, `${other.url}/ok`);

    for (let i = 0; i < 10; i++) {
      expectStatus(await call('PATCH', `/v1/channels/${tarpitted.channelId}/inputs`, { scoreA: i }), 200);
    }
    // The tarpits hold what they can before the other workspace's events come.
    await vi.waitFor(() => expect(shared.open('/hang/')).toBeGreaterThanOrEqual(30), { timeout: 10_000 });

    for (let i = 0; i < 5; i++) {
      expectStatus(await second.call('PATCH', `/v1/channels/${healthy.channelId}/inputs`, { scoreA: i }), 200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await vi.waitFor(
      () => {
        expect(shared.received.filter((g) => g.path === '/ok')).toHaveLength(5);
        expect(other.received).toHaveLength(5);
      },
      { timeout: 20_000 },
    );
    const late = [...shared.received.filter((g) => g.path === '/ok'), ...other.received].map(
      (g) => g.at - Date.parse(g.json.createdAt),
    );
    expect(Math.max(...late)).toBeLessThan(3_000);
    expect(shared.open('/hang/')).toBeGreaterThan(0);
  }, 60_000);

  it('gives up on a connection that does not complete after the connect timeout (3 s), not the 10 s one', async () => {
    const { call } = await setup();
    // Accepts TCP and never says a word: the TLS handshake never completes.
    const sockets: net.Socket[] = [];
    const tarpit = net.createServer((socket) => void sockets.push(socket));
    tarpits.push({ server: tarpit, sockets });
    await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
    const port = (tarpit.address() as net.AddressInfo).port;
    const sub = await subscribe(call, `https://127.0.0.1:${port}/hook`);
    const { channelId } = await createChannelWithScoreboard(call);
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 1 }), 200);
    const log = await vi.waitFor(
      async () => {
        const found = await attempts(call, sub.id);
        expect(found.length).toBeGreaterThan(0);
        return found;
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(log[0]).toMatchObject({ outcome: 'failed', error: 'connection timed out after 3 s' });
    expect(log[0]!.durationMs).toBeGreaterThanOrEqual(2_900);
    expect(log[0]!.durationMs).toBeLessThan(6_000);
  }, 30_000);

  it('sends one attempt at a time to an endpoint that keeps timing out', async () => {
    const { call } = await setup({ ONAIR_WEBHOOK_TIMEOUT_MS: '400', ONAIR_WEBHOOK_RETRY_DELAYS_MS: '50,50' });
    const r = await receiver();
    r.route = () => 'hang';
    await subscribe(call, `${r.url}/slow`);
    const { channelId } = await createChannelWithScoreboard(call);
    for (let i = 0; i < 12; i++) {
      expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: i }), 200);
    }
    // The first attempts go out 8 at once; their timeouts narrow the window to 1 before the 9th goes (counted
    // from the 10th, when the receiver has surely seen the first 8 connections closed).
    await vi.waitFor(() => expect(r.received.length).toBeGreaterThanOrEqual(10), { timeout: 10_000 });
    r.resetOpen();
    const before = r.received.length;
    await vi.waitFor(() => expect(r.received.length).toBeGreaterThanOrEqual(before + 4), { timeout: 15_000 });
    expect(r.maxOpen).toBe(1);
  }, 40_000);
});

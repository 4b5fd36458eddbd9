/**
 * kill -9 with deliveries under way (docs/webhooks.md, "Retries and disabling"): after a restart on the same
 * data dir every pending delivery is sent, each event under its own id only, and a delivery whose event is
 * older than 5 minutes is logged as dropped and never sent. The child server trusts the receiver's
 * certificate through NODE_EXTRA_CA_CERTS, as an operator would for a private CA.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Event, type List } from './helpers/api.js';
import { makeDataDir, serverEnv } from './helpers/server.js';
import { spawnServer, type ChildServer } from './helpers/spawn-server.js';
import { startReceiver, testCertificate, verifyDelivery, type Receiver } from './helpers/webhook-receiver.js';

const children: ChildServer[] = [];
const receivers: Receiver[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const r of receivers.splice(0)) await r.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(dir: string): Promise<ChildServer> {
  const caFile = path.join(dir, 'receiver-ca.pem');
  fs.writeFileSync(caFile, (await testCertificate()).cert);
  const child = await spawnServer({
    ...serverEnv(dir),
    ONAIR_LOG_LEVEL: 'info',
    ONAIR_DB_SYNC: 'full',
    ONAIR_WEBHOOK_ALLOW_PRIVATE: '1',
    NODE_EXTRA_CA_CERTS: caFile,
  });
  children.push(child);
  return child;
}

// Two server processes and a receiver: 90 s for a busy machine (near 30 s seen).
it('resumes pending deliveries after kill -9, one id per event, and drops those older than 5 minutes', async () => {
  const dir = makeDataDir();
  dirs.push(dir);
  const r = await startReceiver('hang');
  receivers.push(r);
  let child = await start(dir);
  let call = api(() => child.url, serverEnv(dir).ONAIR_BOOTSTRAP_KEY!);
  const sub = expectStatus(
    await call<{ id: string; secret: string }>('POST', '/v1/webhooks', {
      url: r.url,
      events: ['channel.bind_updated'],
    }),
    201,
  );
  const { channelId } = await createChannelWithScoreboard(call);
  for (let n = 1; n <= 5; n++) {
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: n }), 200);
  }
  const events = expectStatus(
    await call<List<Event>>('GET', `/v1/events?type=channel.bind_updated&channelId=${channelId}`),
    200,
  ).data;
  expect(events).toHaveLength(5);
  // Every delivery is on the wire and unanswered when the process dies.
  await vi.waitFor(() => expect(r.received).toHaveLength(5), { timeout: 15_000 });
  await children.pop()!.kill('SIGKILL');

  // The server was down long enough for two of the events to pass 5 minutes.
  const stale = events.slice(0, 2).map((e) => e.id);
  const db = new Database(path.join(dir, 'onair.db'));
  const longAgo = new Date(Date.now() - 6 * 60_000).toISOString();
  const marked = db
    .prepare(`UPDATE webhook_deliveries SET event_created_at = ? WHERE event_id IN (?, ?) AND state = 'pending'`)
    .run(longAgo, ...stale).changes;
  db.close();
  expect(marked).toBe(2);

  const before = r.received.length;
  r.fallback = 200;
  child = await start(dir);
  call = api(() => child.url, serverEnv(dir).ONAIR_BOOTSTRAP_KEY!);
  await vi.waitFor(() => expect(r.received.length - before).toBe(3), { timeout: 15_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const resent = r.received.slice(before);
  expect(resent).toHaveLength(3);
  expect(resent.map((g) => g.json.id).sort()).toEqual(
    events
      .slice(2)
      .map((e) => e.id)
      .sort(),
  );
  for (const got of r.received) {
    expect(got.headers['x-service-delivery']).toBe(got.json.id);
    expect(verifyDelivery(got, sub.secret)).toBeNull();
  }
  // Before and after the kill, the same event carries the same id, and its body is the same envelope.
  const byId = new Map<string, string>();
  for (const got of r.received) {
    const body = got.raw.toString('utf8');
    expect(byId.get(got.json.id) ?? body).toBe(body);
    byId.set(got.json.id, body);
  }
  expect([...byId.keys()].sort()).toEqual(events.map((e) => e.id).sort());

  const log = expectStatus(
    await call<List<{ eventId: string; outcome: string; error: string | null }>>(
      'GET',
      `/v1/webhooks/${sub.id}/deliveries`,
    ),
    200,
  ).data;
  const dropped = log.filter((a) => a.outcome === 'dropped');
  expect(dropped.map((a) => a.eventId).sort()).toEqual([...stale].sort());
  expect(dropped[0]!.error).toBe('dropped: the event is older than 5 minutes');
  expect(
    log
      .filter((a) => a.outcome === 'succeeded')
      .map((a) => a.eventId)
      .sort(),
  ).toEqual(
    events
      .slice(2)
      .map((e) => e.id)
      .sort(),
  );
}, 90_000);

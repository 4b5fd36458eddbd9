/**
 * Outgoing webhooks on several nodes (docs/architecture/several-nodes.md, "Webhooks"; docs/webhooks.md): two
 * delivery workers, each on its own PostgresStore over one database, as two onair nodes run them, sending through
 * the real guarded agent to a real local HTTPS receiver. Each attempt is made by one node: the deliveries are
 * claimed. A node that dies mid-attempt leaves claims that run out, and the other node then makes the attempts.
 */
import crypto from 'node:crypto';
import pino from 'pino';
import type { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../src/engine/index.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { change, channelRecord, event } from '../src/store/store.fixtures.js';
import type { AttemptRecord, SubscriptionRecord } from '../src/store/webhook-store.js';
import { freshSchema, serviceGate, type TestSchema } from './helpers/services.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { SLOT_LIMITS } from '../src/webhooks/webhooks.js';
import { createGuardedAgent } from '../src/webhooks/endpoint-guard/index.js';
import { envelope } from '../src/webhooks/outbox-dispatcher.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { sendAttempt } from '../src/webhooks/send-attempt.js';
import { SubscriptionIndex } from '../src/webhooks/subscription-index.js';
import { startReceiver, testCertificate, verifyDelivery, type Receiver } from './helpers/webhook-receiver.js';

const gate = serviceGate('postgres');
const box = SecretBox.fromMaterial('two nodes, one database: the key both nodes are given');
/** An attempt that takes longer fails (and is tried again): far beyond what a local receiver needs, even when busy. */
const TIMEOUT_MS = 15_000;

/** One onair node's webhook sending: its own store (its own pool), subscription index, agent and worker. */
interface Node {
  store: PostgresStore;
  worker: DeliveryWorker;
  agent: Agent;
  /** What this node's worker settled. */
  settled: AttemptRecord[];
}

describe.skipIf(gate.skip)(`Webhook delivery on two nodes${gate.label}`, () => {
  let schema: TestSchema | undefined;
  const nodes: Node[] = [];
  const receivers: Receiver[] = [];

  afterEach(async () => {
    for (const n of nodes.splice(0)) await stopNode(n);
    for (const r of receivers.splice(0)) await r.close();
    await schema?.drop();
    schema = undefined;
  });

  async function stopNode(n: Node): Promise<void> {
    await n.worker.stop();
    await n.agent.destroy();
    await n.store.close();
  }

  /** A node that dies: its connections and its database pool go, without the worker's graceful stop. */
  async function killNode(n: Node): Promise<void> {
    await n.agent.destroy();
    await n.store.close();
    void n.worker.stop().catch(() => undefined);
  }

  async function startNode(url: string, nodeId: string, subs: readonly SubscriptionRecord[], claimMs: number) {
    const store = await PostgresStore.open({ url });
    const index = new SubscriptionIndex(box);
    for (const s of subs) index.add(s);
    const agent = createGuardedAgent({
      allowPrivate: true,
      connections: 32,
      connectTimeoutMs: TIMEOUT_MS,
      tls: { ca: (await testCertificate()).cert },
    });
    const options = { agent, timeoutMs: TIMEOUT_MS, connectTimeoutMs: TIMEOUT_MS, userAgent: 'onair-webhooks/test' };
    const settled: AttemptRecord[] = [];
    const worker = new DeliveryWorker({
      store: store.webhooks,
      index,
      logger: pino({ level: 'silent' }),
      now: Date.now,
      send: (sub, d) => sendAttempt(sub, { eventId: d.eventId, type: d.type, body: Buffer.from(d.body) }, options),
      retryDelaysMs: [200, 200],
      maxAgeMs: 5 * 60_000,
      disableAfter: 20,
      limits: SLOT_LIMITS,
      onSettled: (a) => settled.push(a),
      nodeId,
      claimMs,
    });
    const node: Node = { store, worker, agent, settled };
    nodes.push(node);
    return node;
  }

  /** A schema with `count` subscriptions to `receiver` and `events` events on one channel, all fanned out. */
  async function setup(receiver: Receiver, count: number, events: number) {
    schema = await freshSchema();
    const store = await PostgresStore.open({ url: schema.url });
    try {
      const orgId = (await store.defaultOrg()).id;
      const channel = channelRecord(orgId, 'hooks');
      await store.insertChannel(channel);
      const secrets = new Map<string, string>();
      const subs: SubscriptionRecord[] = [];
      for (let i = 0; i < count; i++) {
        const id = `wh_node${i}`;
        const secret = `whsec_${crypto.randomBytes(16).toString('hex')}`;
        secrets.set(id, secret);
        const sub: SubscriptionRecord = {
          id,
          orgId,
          url: `${receiver.url}/${id}`,
          events: [],
          channelId: null,
          description: null,
          sealedSecret: box.seal(secret, id),
          previousSecret: null,
          status: 'enabled',
          consecutiveFailures: 0,
          lastError: null,
          disabledAt: null,
          createdAt: new Date().toISOString(),
        };
        await store.webhooks.insertSubscription(sub);
        subs.push(sub);
      }
      const committed: EngineEvent[] = [];
      for (let frame = 1; committed.length < events; frame++) {
        const batch = Array.from({ length: Math.min(10, events - committed.length) }, () =>
          event(channel, 'channel.bind_updated', new Date().toISOString()),
        );
        await store.commitTick(frame, [change(channel, { frame, events: batch })]);
        committed.push(...batch);
      }
      const batches = await store.webhooks.undispatched(100);
      const now = Date.now();
      const deliveries = subs.flatMap((s) =>
        batches
          .flatMap((b) => b.events)
          .map((e) => ({
            subscriptionId: s.id,
            eventId: e.id,
            type: e.type,
            eventCreatedAt: e.createdAt,
            body: envelope(e),
            nextAt: now,
          })),
      );
      await store.webhooks.fanOut(batches.at(-1)!.seq, deliveries, []);
      return { url: schema.url, subs, secrets, events: committed };
    } finally {
      await store.close();
    }
  }

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver(200);
    receivers.push(r);
    return r;
  }

  /** The log of every subscription, as one list. */
  async function log(node: Node, subs: readonly SubscriptionRecord[]): Promise<AttemptRecord[]> {
    const all: AttemptRecord[] = [];
    for (const s of subs) all.push(...(await node.store.webhooks.listAttempts(s.id, { limit: 1000 })).attempts);
    return all;
  }

  // Two nodes' stores and workers on Postgres, 180 deliveries: 60 s for a busy machine.
  it('attempts every delivery exactly once between them, each node a share', async () => {
    const r = await receiver();
    const { url, subs, secrets, events } = await setup(r, 3, 60);
    const a = await startNode(url, 'node-a', subs, 30_000);
    const b = await startNode(url, 'node-b', subs, 30_000);
    a.worker.pump();
    b.worker.pump();

    await vi.waitFor(
      async () => {
        expect(r.received).toHaveLength(180);
        expect(await a.store.webhooks.outboxDepth()).toEqual({ pendingDeliveries: 0, undispatchedBatches: 0 });
      },
      { timeout: 15_000, interval: 50 },
    );
    // Nothing more comes once the outbox is empty: no delivery was held by both nodes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(180);
    const sent = r.received.map((got) => `${got.path} ${got.json.id}`);
    expect(new Set(sent).size).toBe(180);
    for (const s of subs) {
      const mine = r.received.filter((got) => got.path === `/${s.id}`);
      expect(mine.map((got) => got.json.id).sort()).toEqual(events.map((e) => e.id).sort());
      for (const got of mine) expect(verifyDelivery(got, secrets.get(s.id)!)).toBeNull();
    }
    // Every attempt was the first and the only one, settled by the node that made it.
    expect(a.settled.length + b.settled.length).toBe(180);
    expect(a.settled.length).toBeGreaterThan(0);
    expect(b.settled.length).toBeGreaterThan(0);
    const lines = await log(b, subs);
    expect(lines).toHaveLength(180);
    expect(lines.every((l) => l.attempt === 1 && l.outcome === 'succeeded')).toBe(true);
  }, 60_000);

  it('makes the attempts of a node that died mid-attempt again, once its claims run out', async () => {
    const r = await receiver();
    r.fallback = 'hang';
    const { url, subs, events } = await setup(r, 1, 5);
    const claimMs = 1500;
    const a = await startNode(url, 'node-a', subs, claimMs);
    const claimedAt = Date.now();
    a.worker.pump();
    await vi.waitFor(() => expect(r.received).toHaveLength(5), { timeout: 15_000 });
    // node-a dies with its five attempts unanswered: nothing of them is written, and its claims stay (a graceful stop
    // would give them back; a dead node cannot).
    nodes.splice(nodes.indexOf(a), 1);
    await killNode(a);

    r.fallback = 200;
    const b = await startNode(url, 'node-b', subs, 30_000);
    b.worker.pump();
    await vi.waitFor(() => expect(r.received).toHaveLength(10), { timeout: claimMs + 15_000, interval: 50 });
    // node-b waited for the claims to run out (it woke for it), then sent each event once, under the same id.
    const again = r.received.slice(5);
    for (const got of again) expect(got.at).toBeGreaterThanOrEqual(claimedAt + claimMs);
    expect(again.map((got) => got.json.id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const got of r.received.slice(0, 5)) {
      expect(again.find((g) => g.json.id === got.json.id)!.raw.equals(got.raw)).toBe(true);
    }
    for (const got of r.received) expect(got.headers['x-service-delivery']).toBe(got.json.id);
    await vi.waitFor(
      async () =>
        expect(await b.store.webhooks.outboxDepth()).toEqual({ pendingDeliveries: 0, undispatchedBatches: 0 }),
      { timeout: 15_000 },
    );
    const lines = await log(b, subs);
    expect(lines.map((l) => [l.attempt, l.outcome])).toEqual(Array.from({ length: 5 }, () => [1, 'succeeded']));
    expect(b.settled).toHaveLength(5);
  }, 60_000);

  it('gives back the claims of attempts in flight on a graceful stop: the other node makes them at once', async () => {
    const r = await receiver();
    r.fallback = 'hang';
    const { url, subs, events } = await setup(r, 1, 5);
    // A claim far longer than the test: only a given-back claim lets node-b make the attempts in time.
    const a = await startNode(url, 'node-a', subs, 120_000);
    a.worker.pump();
    await vi.waitFor(() => expect(r.received).toHaveLength(5), { timeout: 15_000 });
    nodes.splice(nodes.indexOf(a), 1);
    await stopNode(a);

    r.fallback = 200;
    const b = await startNode(url, 'node-b', subs, 30_000);
    b.worker.pump();
    await vi.waitFor(() => expect(r.received).toHaveLength(10), { timeout: 30_000, interval: 50 });
    expect(
      r.received
        .slice(5)
        .map((got) => got.json.id)
        .sort(),
    ).toEqual(events.map((e) => e.id).sort());
    await vi.waitFor(
      async () =>
        expect(await b.store.webhooks.outboxDepth()).toEqual({ pendingDeliveries: 0, undispatchedBatches: 0 }),
      { timeout: 15_000 },
    );
    expect(b.settled).toHaveLength(5);
  }, 90_000);
});

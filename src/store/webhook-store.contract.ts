/**
 * The guarantees of WebhookStore (see webhook-store.ts), as one suite every implementation runs, on a
 * Store harness (the webhook store reads the Store's event log as its outbox).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine/index.js';
import type { StoreHarness } from './store.contract.js';
import { change, channelRecord, event, newDelivery, subscriptionRecord } from './store.fixtures.js';
import type { Store } from './store.js';
import type { AttemptRecord, AttemptWith, DeliveryClaim, Settlement } from './webhook-store.js';

const AT = '2024-03-01T12:00:00.000Z';

/** A claim by `by` that lives well past every time these tests use, unless told otherwise. */
function claim(by = 'node-a', untilMs = 1_000_000): DeliveryClaim {
  return { by, untilMs };
}

function attempt(subscriptionId: string, eventId: string, n: number, ok: true): AttemptWith<'succeeded'>;
function attempt(subscriptionId: string, eventId: string, n: number, ok: false): AttemptWith<'failed'>;
function attempt(subscriptionId: string, eventId: string, n: number, ok: boolean): AttemptRecord {
  return {
    subscriptionId,
    eventId,
    type: 'channel.played',
    attempt: n,
    outcome: ok ? 'succeeded' : 'failed',
    status: ok ? 200 : 500,
    error: ok ? null : 'HTTP 500',
    durationMs: 3,
    at: AT,
  };
}

export function webhookStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`WebhookStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let orgId: string;
    const channel = () => ({ id: 'ch_hooks', orgId });

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
      orgId = (await store.defaultOrg()).id;
      await store.insertChannel({ ...channelRecord(orgId, 'hooks'), id: 'ch_hooks' });
    });
    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    const reopen = async () => {
      await store.close();
      store = await harness.open();
      return store;
    };

    /** Commits a tick with these events and answers them. */
    const commit = async (frame: number, ...types: EngineEvent['type'][]) => {
      const events = types.map((t) => event(channel(), t));
      await store.commitTick(frame, [change(channel(), { frame, events })]);
      return events;
    };

    /** A new subscription with a delivery of each event of a tick of `types`. */
    const subscribedTo = async (...types: EngineEvent['type'][]) => {
      const sub = subscriptionRecord(orgId);
      await store.webhooks.insertSubscription(sub);
      await commit(1, ...types);
      await fanOutAll(sub.id);
      return sub;
    };

    /** Fans out everything undispatched to `sub`, as the dispatcher does. */
    const fanOutAll = async (subId: string) => {
      const batches = await store.webhooks.undispatched(100);
      const events = batches.flatMap((b) => b.events);
      if (batches.length > 0) {
        await store.webhooks.fanOut(
          batches[batches.length - 1]!.seq,
          events.map((e) => newDelivery(subId, e)),
          [],
        );
      }
      return events;
    };

    it('keeps subscriptions, lists them in creation order, within a channel lock, and deletes them', async () => {
      const all = subscriptionRecord(orgId);
      const onChannel = subscriptionRecord(orgId, { channelId: 'ch_hooks', events: ['channel.played'] });
      await store.webhooks.insertSubscription(all);
      await store.webhooks.insertSubscription(onChannel);
      expect(await (await reopen()).webhooks.getSubscription(onChannel.id)).toEqual(onChannel);
      expect((await store.webhooks.listSubscriptions(orgId, { limit: 10 })).map((s) => s.id)).toEqual([
        all.id,
        onChannel.id,
      ]);
      const locked = await store.webhooks.listSubscriptions(orgId, { limit: 10, onlyChannelIds: ['ch_hooks'] });
      expect(locked.map((s) => s.id)).toEqual([onChannel.id]);
      expect(await store.webhooks.countSubscriptions(orgId)).toBe(2);
      await store.webhooks.deleteSubscription(all.id);
      expect(await store.webhooks.getSubscription(all.id)).toBeUndefined();
      expect((await store.webhooks.enabledSubscriptions()).map((s) => s.id)).toEqual([onChannel.id]);
    });

    it('rolls a secret: the one replaced becomes the previous until its expiry, or is forgotten', async () => {
      const sub = subscriptionRecord(orgId, { sealedSecret: 'v1.first' });
      await store.webhooks.insertSubscription(sub);
      const rolled = await store.webhooks.rollSecret(sub.id, 'v1.second', '2024-03-02T12:00:00.000Z');
      const previousSecret = { sealed: 'v1.first', expiresAt: '2024-03-02T12:00:00.000Z' };
      expect(rolled).toEqual({ ...sub, sealedSecret: 'v1.second', previousSecret });
      expect(await (await reopen()).webhooks.getSubscription(sub.id)).toEqual(rolled);
      expect((await store.webhooks.enabledSubscriptions())[0]).toEqual(rolled);
      // Two rolls at once: whichever runs second keeps the other's secret as its previous one.
      const [a, b] = await Promise.all([
        store.webhooks.rollSecret(sub.id, 'v1.third', '2024-03-03T12:00:00.000Z'),
        store.webhooks.rollSecret(sub.id, 'v1.fourth', '2024-03-03T12:00:01.000Z'),
      ]);
      const last = (await store.webhooks.getSubscription(sub.id))!;
      expect([a!.sealedSecret, b!.sealedSecret]).toContain(last.sealedSecret);
      expect(new Set([last.sealedSecret, last.previousSecret!.sealed])).toEqual(new Set(['v1.third', 'v1.fourth']));
      const now = await store.webhooks.rollSecret(sub.id, 'v1.fifth', null);
      expect(now).toMatchObject({ sealedSecret: 'v1.fifth', previousSecret: null });
      expect(await store.webhooks.rollSecret('wh_missing', 'v1.x', null)).toBeUndefined();
    });

    it('reads committed events after the cursor once: fanOut moves it with the deliveries, across a restart', async () => {
      const sub = subscriptionRecord(orgId);
      await store.webhooks.insertSubscription(sub);
      const first = await commit(1, 'channel.played', 'channel.bind_updated');
      expect(await fanOutAll(sub.id)).toEqual(first);
      expect(await store.webhooks.undispatched(100)).toEqual([]);
      const second = await commit(2, 'channel.cleared');
      await reopen();
      expect((await store.webhooks.undispatched(100)).flatMap((b) => b.events)).toEqual(second);
      await fanOutAll(sub.id);
      // A repeated fan-out of the same event to the same subscription creates nothing new.
      await store.webhooks.fanOut(0, [newDelivery(sub.id, first[0]!)], []);
      const due = await store.webhooks.claimDue(sub.id, 5000, 10, claim());
      expect(due.map((d) => d.eventId)).toEqual([...first, ...second].map((e) => e.id));
      expect(await store.webhooks.outboxDepth()).toEqual({ pendingDeliveries: 3, undispatchedBatches: 0 });
    });

    it('skips what nobody wants, and creates no delivery for a disabled or deleted subscription', async () => {
      await commit(1, 'channel.played');
      await store.webhooks.skipUndispatched();
      expect(await store.webhooks.undispatched(100)).toEqual([]);
      const gone = subscriptionRecord(orgId);
      const off = subscriptionRecord(orgId, { status: 'disabled' });
      await store.webhooks.insertSubscription(off);
      const [e] = await commit(2, 'channel.played');
      await store.webhooks.fanOut(99, [newDelivery(gone.id, e!), newDelivery(off.id, e!)], []);
      expect(await store.webhooks.outboxDepth()).toEqual({ pendingDeliveries: 0, undispatchedBatches: 0 });
    });

    it('claims due deliveries oldest first, never one under a live claim, and says when the next falls due', async () => {
      const sub = subscriptionRecord(orgId);
      await store.webhooks.insertSubscription(sub);
      const events = await commit(1, 'channel.played', 'channel.played', 'channel.played');
      const batches = await store.webhooks.undispatched(10);
      await store.webhooks.fanOut(
        batches[0]!.seq,
        events.map((e, i) => newDelivery(sub.id, e, 1000 + i * 1000)),
        [],
      );
      expect(await store.webhooks.claimDue(sub.id, 2000, 0, claim())).toEqual([]);
      const [first] = await store.webhooks.claimDue(sub.id, 2000, 1, claim('node-a', 40_000));
      expect(first).toMatchObject({ eventId: events[0]!.id, attempts: 0, nextAt: 1000 });
      // The holder of a live claim does not get its delivery again either: what it has in flight stays its own.
      const rest = await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-a', 30_000));
      expect(rest.map((d) => d.eventId)).toEqual([events[1]!.id]);
      expect(await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-b'))).toEqual([]);
      // The next retry, then the first claim to run out: a worker that wakes then takes over a dead node's work.
      expect(await store.webhooks.nextDueAt(2000)).toBe(3000);
      expect(await store.webhooks.nextDueAt(3000)).toBe(30_000);
      expect(await store.webhooks.nextDueAt(30_000)).toBe(40_000);
      expect(await store.webhooks.nextDueAt(40_000)).toBeNull();
    });

    it('gives claims back: released deliveries are claimable at once, settled ones stay settled', async () => {
      const sub = subscriptionRecord(orgId);
      await store.webhooks.insertSubscription(sub);
      const events = await commit(1, 'channel.played', 'channel.played');
      const batches = await store.webhooks.undispatched(10);
      await store.webhooks.fanOut(
        batches[0]!.seq,
        events.map((e) => newDelivery(sub.id, e, 1000)),
        [],
      );
      const held = await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-a', 60_000));
      expect(held).toHaveLength(2);
      expect(await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-b'))).toEqual([]);
      await store.webhooks.releaseClaims(held.map((d) => d.id));
      const again = await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-b'));
      expect(again.map((d) => d.eventId)).toEqual(events.map((e) => e.id));
      // What the worker had settled meanwhile is not brought back by a release.
      const first = again[0]!;
      await store.webhooks.settle(
        [{ deliveryId: first.id, attempt: attempt(sub.id, first.eventId, 1, true), state: 'succeeded' }],
        20,
      );
      await store.webhooks.releaseClaims(again.map((d) => d.id));
      const last = await store.webhooks.claimDue(sub.id, 2000, 10, claim('node-c'));
      expect(last.map((d) => d.eventId)).toEqual([events[1]!.id]);
    });

    it('never hands one delivery to two claimants at once', async () => {
      const subs = [subscriptionRecord(orgId), subscriptionRecord(orgId)];
      for (const s of subs) await store.webhooks.insertSubscription(s);
      const events = await commit(1, ...Array.from({ length: 12 }, () => 'channel.played' as const));
      const batches = await store.webhooks.undispatched(10);
      await store.webhooks.fanOut(
        batches[0]!.seq,
        subs.flatMap((s) => events.map((e) => newDelivery(s.id, e))),
        [],
      );
      // Eight claimants on each subscription at once, three rows each at most: 24 asked for, 12 there.
      const claims = await Promise.all(
        subs.flatMap((s) =>
          Array.from({ length: 8 }, (_, i) => store.webhooks.claimDue(s.id, 5000, 3, claim(`node-${i}`))),
        ),
      );
      for (const [n, s] of subs.entries()) {
        const got = claims.slice(n * 8, n * 8 + 8).flat();
        expect(got.every((d) => d.subscriptionId === s.id)).toBe(true);
        expect(got.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
      }
      for (const got of claims) {
        expect(got.length).toBeLessThanOrEqual(3);
        // Each claimant's share is oldest first.
        expect(got.map((d) => d.id)).toEqual(got.map((d) => d.id).sort((a, b) => a - b));
      }
      expect(await store.webhooks.claimDue(subs[0]!.id, 5000, 10, claim('node-z'))).toEqual([]);
    });

    it('makes a delivery claimable again by anyone once its claim runs out, as it was', async () => {
      const sub = await subscribedTo('channel.played');
      const [d] = await store.webhooks.claimDue(sub.id, 1000, 1, claim('node-a', 5000));
      expect(await store.webhooks.claimDue(sub.id, 4999, 1, claim('node-b', 9000))).toEqual([]);
      expect(await store.webhooks.nextDueAt(1000)).toBe(5000);
      // node-a died mid-attempt: node-b makes the attempt again, the same delivery under the same event id.
      expect(await store.webhooks.claimDue(sub.id, 5000, 1, claim('node-b', 9000))).toEqual([d]);
      expect(await store.webhooks.claimDue(sub.id, 8999, 1, claim('node-a', 20_000))).toEqual([]);
      expect(await store.webhooks.claimDue(sub.id, 9000, 1, claim('node-a', 20_000))).toEqual([d]);
      expect(await store.webhooks.outboxDepth()).toMatchObject({ pendingDeliveries: 1 });
    });

    it('takes a result for an attempt already recorded into the log only: it moves no delivery and no count', async () => {
      const sub = await subscribedTo('channel.played');
      const [d] = await store.webhooks.claimDue(sub.id, 1000, 1, claim('node-a', 2000));
      // node-a stalls past its claim; node-b makes attempt 1 too, fails, and a retry is claimed by node-c.
      await store.webhooks.claimDue(sub.id, 2000, 1, claim('node-b', 12_000));
      const failed = (n: number, nextAt: number): Settlement => ({
        deliveryId: d!.id,
        attempt: attempt(sub.id, d!.eventId, n, false),
        state: 'pending',
        nextAt,
      });
      await store.webhooks.settle([failed(1, 3000)], 20);
      expect(await store.webhooks.claimDue(sub.id, 3000, 1, claim('node-c', 13_000))).toMatchObject([
        { id: d!.id, attempts: 1 },
      ]);
      // node-a's late result: logged, but node-c's claim and the retry stand, and the failure counts once.
      await store.webhooks.settle([failed(1, 4000)], 20);
      expect(await store.webhooks.claimDue(sub.id, 5000, 1, claim('node-d'))).toEqual([]);
      expect(await store.webhooks.nextDueAt(5000)).toBe(13_000);
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(1);
      expect((await store.webhooks.listAttempts(sub.id, { limit: 10 })).attempts.map((a) => a.attempt)).toEqual([1, 1]);
      await store.webhooks.settle([failed(2, 14_000)], 20);
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(2);
      expect(await store.webhooks.claimDue(sub.id, 14_000, 1, claim('node-d'))).toMatchObject([{ attempts: 2 }]);
    });

    it('settles attempts: a retry stays pending, a success resets the count, the log keeps every line', async () => {
      const sub = await subscribedTo('channel.played');
      const [d] = await store.webhooks.claimDue(sub.id, 5000, 1, claim('node-a', 60_000));
      const retry: Settlement = {
        deliveryId: d!.id,
        attempt: attempt(sub.id, d!.eventId, 1, false),
        state: 'pending',
        nextAt: 9000,
      };
      expect(await store.webhooks.settle([retry], 20)).toEqual([]);
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(1);
      // Settling ended node-a's claim: the retry is anyone's at its time, long before the claim would have run out.
      expect(await store.webhooks.claimDue(sub.id, 8999, 1, claim('node-b'))).toEqual([]);
      expect(await store.webhooks.nextDueAt(5000)).toBe(9000);
      const [again] = await store.webhooks.claimDue(sub.id, 9000, 1, claim('node-b'));
      expect(again).toMatchObject({ id: d!.id, attempts: 1, nextAt: 9000 });
      await store.webhooks.settle(
        [{ deliveryId: d!.id, attempt: attempt(sub.id, d!.eventId, 2, true), state: 'succeeded' }],
        20,
      );
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(0);
      expect(await store.webhooks.claimDue(sub.id, 2_000_000, 1, claim('node-c', 3_000_000))).toEqual([]);
      expect(await store.webhooks.nextDueAt(5000)).toBeNull();
      const log = await (await reopen()).webhooks.listAttempts(sub.id, { limit: 1 });
      expect(log.attempts.map((a) => a.outcome)).toEqual(['failed']);
      const next = await store.webhooks.listAttempts(sub.id, { limit: 1, after: log.nextCursor! });
      expect(next).toEqual({ attempts: [attempt(sub.id, d!.eventId, 2, true)], nextCursor: null });
    });

    it('disables at the limit in one transaction: last error set, pending deliveries dropped', async () => {
      const sub = await subscribedTo('channel.played', 'channel.played', 'channel.played');
      const due = await store.webhooks.claimDue(sub.id, 5000, 10, claim());
      const fail = (i: number): Settlement => ({
        deliveryId: due[i]!.id,
        attempt: attempt(sub.id, due[i]!.eventId, 1, false),
        state: 'pending',
        nextAt: 6000,
      });
      expect(await store.webhooks.settle([fail(0)], 2)).toEqual([]);
      expect(await store.webhooks.settle([fail(1)], 2)).toEqual([sub.id]);
      const off = (await (await reopen()).webhooks.getSubscription(sub.id))!;
      expect(off).toMatchObject({ status: 'disabled', consecutiveFailures: 2, disabledAt: AT });
      expect(off.lastError).toEqual({ at: AT, message: 'HTTP 500', status: 500 });
      expect(await store.webhooks.outboxDepth()).toMatchObject({ pendingDeliveries: 0 });
      expect(await store.webhooks.nextDueAt(0)).toBeNull();
      expect(await store.webhooks.enabledSubscriptions()).toEqual([]);
      // A late result for a dropped delivery is logged and changes nothing else.
      expect(await store.webhooks.settle([fail(2)], 2)).toEqual([]);
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(2);
      expect((await store.webhooks.listAttempts(sub.id, { limit: 10 })).attempts).toHaveLength(3);
    });

    it('records drops without counting them, and deleting a subscription takes its deliveries and log', async () => {
      const sub = subscriptionRecord(orgId);
      await store.webhooks.insertSubscription(sub);
      const [e] = await commit(1, 'channel.played');
      const drop: AttemptRecord = { ...attempt(sub.id, e!.id, 1, false), outcome: 'dropped', status: null };
      const batches = await store.webhooks.undispatched(10);
      await store.webhooks.fanOut(batches[0]!.seq, [], [drop]);
      await store.webhooks.logAttempt({ ...attempt(sub.id, 'evt_ping', 1, true), type: 'webhook.ping' });
      expect((await store.webhooks.listAttempts(sub.id, { limit: 10 })).attempts.map((a) => a.outcome)).toEqual([
        'dropped',
        'succeeded',
      ]);
      expect((await store.webhooks.getSubscription(sub.id))!.consecutiveFailures).toBe(0);
      await store.webhooks.deleteSubscription(sub.id);
      expect((await store.webhooks.listAttempts(sub.id, { limit: 10 })).attempts).toEqual([]);
    });

    it('prunes log lines and finished deliveries older than the cutoff, never pending ones', async () => {
      const sub = await subscribedTo('channel.played', 'channel.played');
      const due = await store.webhooks.claimDue(sub.id, 5000, 10, claim());
      await store.webhooks.settle(
        [{ deliveryId: due[0]!.id, attempt: attempt(sub.id, due[0]!.eventId, 1, true), state: 'succeeded' }],
        20,
      );
      expect(await store.webhooks.pruneDeliveries('2099-01-01T00:00:00.000Z')).toBe(2);
      expect((await store.webhooks.listAttempts(sub.id, { limit: 10 })).attempts).toEqual([]);
      expect(await store.webhooks.outboxDepth()).toMatchObject({ pendingDeliveries: 1 });
    });
  });
}

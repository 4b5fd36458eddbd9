import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../store/postgres/database.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import { change, channelRecord } from '../store/store.fixtures.js';
import { freshSchema, serviceGate, type TestSchema } from '../../test/helpers/services.js';
import { ChannelLeases } from './channel-leases.js';

const gate = serviceGate('postgres');

/** A node: its store (fenced by its leases) and its leases, on one schema shared with the other nodes. */
interface Node {
  store: PostgresStore;
  leases: ChannelLeases;
  db: Database;
}

describe.skipIf(gate.skip)(`ChannelLeases${gate.label}`, () => {
  let schema: TestSchema;
  const nodes: Node[] = [];

  afterEach(async () => {
    for (const n of nodes.splice(0)) {
      await n.store.close();
      await n.db.close();
    }
    await schema?.drop();
  });

  async function cluster(count: number, leaseMs = 3_000): Promise<Node[]> {
    schema = await freshSchema();
    for (let i = 0; i < count; i++) {
      const db = new Database(schema.url, { poolSize: 2 });
      const leases = new ChannelLeases(db, { nodeId: `node-${i}`, leaseMs });
      const store = await PostgresStore.open({ url: schema.url, fence: (tx, ids) => leases.fence(tx, ids) });
      await leases.migrate();
      nodes.push({ store, leases, db });
    }
    return nodes;
  }

  async function addChannels(store: PostgresStore, count: number) {
    const org = await store.defaultOrg();
    const channels = Array.from({ length: count }, (_, i) => channelRecord(org.id, `c${i}`));
    for (const c of channels) await store.insertChannel(c);
    return channels;
  }

  /** Beats every node in turn, each giving up its surplus, `rounds` times. */
  async function settle(all: Node[], rounds = 3): Promise<void> {
    for (let r = 0; r < rounds; r++) {
      for (const n of all) {
        const { surplus } = await n.leases.beat();
        await n.leases.release(surplus);
      }
    }
  }

  it('gives every channel to exactly one node, and spreads them over the live nodes; a new channel moves none', async () => {
    const all = await cluster(3);
    const channels = await addChannels(all[0]!.store, 7);
    await settle(all);
    const held = all.map((n) => [...n.leases.holdings().keys()]);
    expect(held.flat().sort()).toEqual(channels.map((c) => c.id).sort());
    // 7 over 3 nodes: at most 3 each (7 / 3 rounded up), so 3, 3 and 1 once the first node gave up its surplus.
    expect(held.map((h) => h.length).sort()).toEqual([1, 3, 3]);
    // One more channel: the node under its share takes it; nobody gives anything up.
    await addChannels(all[0]!.store, 1);
    const before = all.map((n) => new Set(n.leases.holdings().keys()));
    await settle(all, 2);
    const after = all.map((n) => new Set(n.leases.holdings().keys()));
    for (const [i, set] of before.entries()) for (const id of set) expect(after[i]!.has(id)).toBe(true);
    expect(after.map((s) => s.size).sort()).toEqual([2, 3, 3]);
  });

  it("moves a silent node's channels to another once its leases expire, with a new token; the stale owner's tick is refused", async () => {
    // Long enough that B's beat right after A's comes within it, however busy the machine.
    const leaseMs = 2_000;
    const [a, b] = await cluster(2, leaseMs);
    const [channel] = await addChannels(a!.store, 1);
    const first = await a!.leases.beat();
    expect([...first.acquired.keys()]).toEqual([channel!.id]);
    const tokenA = first.acquired.get(channel!.id)!;
    // B finds nothing free while A's lease runs.
    expect((await b!.leases.beat()).acquired.size).toBe(0);

    // A falls silent (a long pause) past its lease; B takes the channel over.
    await new Promise((resolve) => setTimeout(resolve, leaseMs + 100));
    const taken = await b!.leases.beat();
    expect(taken.acquired.get(channel!.id)).toBe(tokenA + 1);

    // A wakes up and ticks as if it still owned the channel: refused, nothing written.
    const stale = change(channel!, { set: { score: 7 }, frame: 10 });
    await expect(a!.store.commitTick(1, [stale])).rejects.toMatchObject({ code: 'unavailable' });
    expect(a!.leases.holds(channel!.id)).toBe(false);
    expect((await b!.store.loadChannel(channel!.id))!.live.values.get('score')).toBeUndefined();

    // The owner's tick goes through. A's next beat says it lost nothing it still thought it had.
    await b!.store.commitTick(2, [change(channel!, { set: { score: 3 }, frame: 11 })]);
    expect((await a!.store.loadChannel(channel!.id))!.live.values.get('score')).toBe(3);
    expect((await a!.leases.beat()).lost).toEqual([]);
  });

  it('reports a lease lost to a takeover at the next beat', async () => {
    const [a, b] = await cluster(2, 300);
    const [channel] = await addChannels(a!.store, 1);
    await a!.leases.beat();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await b!.leases.beat();
    const { lost } = await a!.leases.beat();
    expect(lost).toEqual([channel!.id]);
    expect(a!.leases.holds(channel!.id)).toBe(false);
  });

  it('keeps a lease that expired while nobody took it: no one else can have ticked', async () => {
    const [a] = await cluster(1, 200);
    const [channel] = await addChannels(a!.store, 1);
    await a!.leases.beat();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await a!.leases.beat()).lost).toEqual([]);
    await a!.store.commitTick(1, [change(channel!, { set: { score: 1 }, frame: 10 })]);
  });

  it('lets another node claim the leases of a node that left at once, and drops a lease with its channel', async () => {
    const [a, b] = await cluster(2);
    const [channel] = await addChannels(a!.store, 1);
    await a!.leases.beat();
    await a!.leases.leave();
    expect((await b!.leases.beat()).acquired.has(channel!.id)).toBe(true);
    await b!.store.deleteChannel(channel!.id);
    const rows = await b!.db.rows('SELECT 1 FROM channel_leases WHERE channel_id = $1', [channel!.id]);
    expect(rows).toEqual([]);
  });
});

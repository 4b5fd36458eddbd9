/**
 * Channel ownership across nodes (docs/architecture/several-nodes.md, "Ownership"): each channel is ticked by exactly
 * one node, the holder of its lease in Postgres. A lease lasts `leaseMs` and is renewed on every beat; a fencing
 * token grows by one whenever the lease changes hands.
 *
 * - beat(), once a second: renews this node's leases (reporting the ones it lost: taken over, which moved the token;
 *   a lease that expired but that nobody took is still this node's, since nobody else can have ticked), says the
 *   node is alive, and claims free or expired leases up to its share, with `FOR UPDATE SKIP LOCKED` so that nodes
 *   claiming at once never take the same lease. A share is the channels divided by the live nodes, rounded up: a node
 *   over it (nodes left, or it was alone when the others started) gives up its newest channels, and a node under it
 *   claims what is free. Rounding up leaves room for one channel's difference between nodes, so adding a channel
 *   never moves others.
 * - fence(), inside a tick's transaction: locks the ticked channels' lease rows `FOR SHARE` and refuses the tick
 *   unless this node still holds each one with the token it took it with. A node that was paused past its leases
 *   (a long GC, a frozen VM) therefore cannot commit after another has taken over; and a takeover waits for a tick
 *   in flight, so the new owner loads what that tick committed. It locks the channels' own rows first, in the order
 *   a deletion takes them (the channel, then through its foreign key the lease): a deletion made meanwhile on any
 *   node then waits for the tick, or the tick for it, never both for each other (a deadlock Postgres would break by
 *   failing one of them). A channel deleted before the tick is not "lost": fence() names it, and the tick leaves it
 *   out.
 *
 * Expiry is judged by Postgres's clock (`now()`), never a node's, so nodes' clocks may disagree.
 */
import { AppError } from '../errors.js';
import type { Database, Sql } from '../store/postgres/database.js';

export interface ChannelLeasesOptions {
  nodeId: string;
  /** How long a lease lasts without renewal. Default 3,000 ms. */
  leaseMs?: number;
}

export interface BeatResult {
  /** Leases taken in this beat, with their tokens: the node must load these channels and tick them. */
  acquired: Map<string, number>;
  /** Leases this node held but no longer does: it must stop ticking these channels at once. */
  lost: string[];
  /** Channels over the fair share: the node should stop ticking them, then release() them. */
  surplus: string[];
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS cluster_nodes (
    node_id text COLLATE "C" PRIMARY KEY,
    expires_at timestamptz NOT NULL
  );
  CREATE TABLE IF NOT EXISTS channel_leases (
    channel_id text COLLATE "C" PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    node_id text COLLATE "C",
    token bigint NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL DEFAULT '-infinity'
  );
  CREATE INDEX IF NOT EXISTS channel_leases_node ON channel_leases (node_id);
`;

const RENEW = `UPDATE channel_leases AS l SET expires_at = now() + make_interval(secs => $2::float8 / 1000)
  FROM unnest($3::text[], $4::bigint[]) AS h(channel_id, token)
  WHERE l.channel_id = h.channel_id AND l.token = h.token AND l.node_id = $1
  RETURNING l.channel_id`;
const ALIVE = `INSERT INTO cluster_nodes (node_id, expires_at) VALUES ($1, now() + make_interval(secs => $2::float8 / 1000))
  ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at`;
const LIVE_NODES = `SELECT node_id FROM cluster_nodes WHERE expires_at > now() ORDER BY node_id`;
const NEW_CHANNELS = `INSERT INTO channel_leases (channel_id)
  SELECT id FROM channels c WHERE NOT EXISTS (SELECT 1 FROM channel_leases l WHERE l.channel_id = c.id)
  ON CONFLICT DO NOTHING`;
const CHANNEL_COUNT = `SELECT count(*) AS n FROM channel_leases`;
const CLAIM = `WITH free AS (
    SELECT channel_id FROM channel_leases WHERE node_id IS NULL OR expires_at <= now()
    ORDER BY channel_id LIMIT $3 FOR UPDATE SKIP LOCKED
  )
  UPDATE channel_leases AS l SET node_id = $1, token = l.token + 1,
    expires_at = now() + make_interval(secs => $2::float8 / 1000)
  FROM free WHERE l.channel_id = free.channel_id
  RETURNING l.channel_id, l.token`;
const RELEASE = `UPDATE channel_leases AS l SET node_id = NULL, expires_at = '-infinity'
  FROM unnest($2::text[], $3::bigint[]) AS h(channel_id, token)
  WHERE l.channel_id = h.channel_id AND l.token = h.token AND l.node_id = $1`;
const OWNER = `SELECT node_id FROM channel_leases WHERE channel_id = $1 AND node_id IS NOT NULL AND expires_at > now()`;
const LOCK_CHANNELS = `SELECT id FROM channels WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`;
const FENCE = `SELECT channel_id, node_id, token FROM channel_leases WHERE channel_id = ANY($1::text[]) FOR SHARE`;

export class ChannelLeases {
  /** Channel id → the token this node took its lease with. */
  private readonly held = new Map<string, number>();
  private lostListener: (channelIds: string[]) => void = () => {};
  readonly nodeId: string;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Database,
    options: ChannelLeasesOptions,
  ) {
    this.nodeId = options.nodeId;
    this.leaseMs = options.leaseMs ?? 3_000;
  }

  /** Creates the lease tables if they are missing (after the store's migrations: leases refer to channels). */
  async migrate(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(hashtext('onair.cluster.schema'))`);
      await tx.run(SCHEMA);
    });
  }

  /** `listener` runs when a tick's fence finds leases lost (between beats): the node must stop ticking them at once. */
  onFencedOut(listener: (channelIds: string[]) => void): void {
    this.lostListener = listener;
  }

  /** The channels this node holds, with their tokens. */
  holdings(): ReadonlyMap<string, number> {
    return this.held;
  }

  holds(channelId: string): boolean {
    return this.held.has(channelId);
  }

  async beat(): Promise<BeatResult> {
    const lost = await this.renew();
    await this.db.run(ALIVE, [this.nodeId, this.leaseMs]);
    await this.db.run(NEW_CHANNELS);
    const [nodes, channels] = await Promise.all([
      this.db.rows<{ node_id: string }>(LIVE_NODES),
      this.db.row<{ n: number }>(CHANNEL_COUNT),
    ]);
    const share = shareOf(
      channels?.n ?? 0,
      nodes.map((r) => r.node_id),
      this.nodeId,
    );
    const acquired = new Map<string, number>();
    if (this.held.size < share) {
      const rows = await this.db.rows<{ channel_id: string; token: number }>(CLAIM, [
        this.nodeId,
        this.leaseMs,
        share - this.held.size,
      ]);
      for (const r of rows) {
        this.held.set(r.channel_id, r.token);
        acquired.set(r.channel_id, r.token);
      }
    }
    // Newest channels first (ids sort by creation): the oldest, probably busiest, stay where they are.
    const surplus = this.held.size > share ? [...this.held.keys()].sort().slice(share - this.held.size) : [];
    return { acquired, lost, surplus };
  }

  /** The node holding a live lease on the channel, or null (none yet, or it expired and nobody took it yet). */
  async ownerOf(channelId: string): Promise<string | null> {
    return (await this.db.row<{ node_id: string }>(OWNER, [channelId]))?.node_id ?? null;
  }

  /** Gives leases up at once (a planned shutdown, a surplus), so another node claims them on its next beat. */
  async release(channelIds: readonly string[]): Promise<void> {
    const ids = channelIds.filter((id) => this.held.has(id));
    if (ids.length === 0) return;
    const tokens = ids.map((id) => this.held.get(id)!);
    for (const id of ids) this.held.delete(id);
    await this.db.run(RELEASE, [this.nodeId, ids, tokens]);
  }

  /** A planned shutdown: gives every lease up and leaves the live nodes, so the others share its channels at once. */
  async leave(): Promise<void> {
    await this.release([...this.held.keys()]);
    await this.db.run('DELETE FROM cluster_nodes WHERE node_id = $1', [this.nodeId]);
  }

  /** Drops leases from this node's holdings (lost, or no longer ticked); the database is not told. */
  forget(channelIds: readonly string[]): void {
    for (const id of channelIds) this.held.delete(id);
  }

  /**
   * Inside a tick's transaction: throws AppError `unavailable` (and forgets the leases) unless this node still
   * holds every one of `channelIds` with its token; resolves with those of them that were deleted (their leases went
   * with them). The row locks last until the transaction ends.
   */
  async fence(tx: Sql, channelIds: readonly string[]): Promise<Set<string>> {
    const existing = new Set((await tx.rows<{ id: string }>(LOCK_CHANNELS, [[...channelIds]])).map((r) => r.id));
    const deleted = new Set(channelIds.filter((id) => !existing.has(id)));
    const rows = await tx.rows<{ channel_id: string; node_id: string | null; token: number }>(FENCE, [[...existing]]);
    const current = new Map(rows.map((r) => [r.channel_id, r]));
    const lost = [...existing].filter((id) => {
      const row = current.get(id);
      return !row || row.node_id !== this.nodeId || row.token !== this.held.get(id);
    });
    if (lost.length === 0) return deleted;
    this.forget(lost);
    this.lostListener(lost);
    throw new AppError('unavailable', `This node no longer owns channel ${lost.join(', ')}; retry shortly.`, {
      retryAfter: 1,
    });
  }

  private async renew(): Promise<string[]> {
    if (this.held.size === 0) return [];
    const ids = [...this.held.keys()];
    const tokens = ids.map((id) => this.held.get(id)!);
    const kept = new Set(
      (await this.db.rows<{ channel_id: string }>(RENEW, [this.nodeId, this.leaseMs, ids, tokens])).map(
        (r) => r.channel_id,
      ),
    );
    const lost = ids.filter((id) => !kept.has(id));
    this.forget(lost);
    return lost;
  }
}

/** The most channels one node should hold: the channels divided by the live nodes (this one included), rounded up. */
function shareOf(channels: number, liveNodes: readonly string[], me: string): number {
  const count = liveNodes.length + (liveNodes.includes(me) ? 0 : 1);
  return Math.ceil(channels / count);
}

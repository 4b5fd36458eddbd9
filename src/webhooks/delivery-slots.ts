/**
 * How many delivery attempts may be in flight, and whose (docs/webhooks.md, "Fair delivery"). Three caps, each
 * below the one above it, so that no workspace's endpoints can hold what another workspace needs:
 *
 * - a subscription has at most its window in flight: `perEndpoint` (8) while its endpoint answers, halved at each
 *   attempt that times out, down to 1, and widened by one at each answer (AIMD, as TCP does with a congested
 *   path). An endpoint that never answers soon holds one slot, not eight;
 * - a workspace has at most `perWorkspace` (32) in flight, a quarter of the overall cap, so one workspace's
 *   endpoints can never fill the node;
 * - the node has at most `overall` (128) in flight, except that a workspace with fewer than `workspaceMinimum` (4)
 *   in flight may always start more, up to that minimum: a workspace with due work is never starved, even when
 *   every slot is held by others. At worst the node holds `overall` + `workspaceMinimum` per workspace.
 *
 * The worker visits workspaces round-robin, and each workspace's subscriptions round-robin, asking `room` for each.
 * Counts are this node's: each node of several has its own slots (the claims keep them from sharing a delivery).
 */

export interface SlotLimits {
  overall: number;
  perWorkspace: number;
  /** The widest window a subscription gets. */
  perEndpoint: number;
  workspaceMinimum: number;
}

export interface SlotOwner {
  id: string;
  orgId: string;
}

export class DeliverySlots {
  private total = 0;
  private readonly byWorkspace = new Map<string, number>();
  private readonly bySubscription = new Map<string, number>();
  /** Subscriptions whose window is narrower than `perEndpoint`. */
  private readonly windows = new Map<string, number>();

  constructor(private readonly limits: SlotLimits) {}

  /** Attempts `sub` may start now (0 or more). */
  room(sub: SlotOwner): number {
    const inWorkspace = this.byWorkspace.get(sub.orgId) ?? 0;
    const own = this.window(sub.id) - (this.bySubscription.get(sub.id) ?? 0);
    const workspace = this.limits.perWorkspace - inWorkspace;
    const overall = Math.max(this.limits.overall - this.total, this.limits.workspaceMinimum - inWorkspace);
    return Math.max(0, Math.min(own, workspace, overall));
  }

  /** Counts one attempt of `sub` as in flight; the answer releases it (once, however often it is called). */
  take(sub: SlotOwner): () => void {
    this.total++;
    bump(this.byWorkspace, sub.orgId, 1);
    bump(this.bySubscription, sub.id, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.total--;
      bump(this.byWorkspace, sub.orgId, -1);
      bump(this.bySubscription, sub.id, -1);
    };
  }

  /** The endpoint answered (any HTTP status): one more attempt at a time, up to `perEndpoint`. */
  answered(id: string): void {
    const next = this.window(id) + 1;
    if (next >= this.limits.perEndpoint) this.windows.delete(id);
    else this.windows.set(id, next);
  }

  /** No answer in time: half as many attempts at a time, down to 1. */
  timedOut(id: string): void {
    this.windows.set(id, Math.max(1, Math.floor(this.window(id) / 2)));
  }

  /** Attempts `id` may have in flight at once now. */
  window(id: string): number {
    return this.windows.get(id) ?? this.limits.perEndpoint;
  }

  /** The subscription is gone: its window is forgotten (attempts still in flight release as they end). */
  forget(id: string): void {
    this.windows.delete(id);
  }

  get inFlight(): number {
    return this.total;
  }

  /** Attempts in flight for one workspace. */
  inWorkspace(orgId: string): number {
    return this.byWorkspace.get(orgId) ?? 0;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

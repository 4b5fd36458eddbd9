/**
 * Which channels this node ticks (docs/architecture/several-nodes.md, "Ownership"): those whose lease it holds
 * (channel-leases.ts). Every node holds every channel in its engine; the engine ticks only the owned ones (its
 * placement asks owns(): the lease held and the load installed), and this module moves channels in and out of that set:
 *
 * - each beat renews and claims leases; a channel acquired is loaded from Postgres (the last committed tick: nothing
 *   acknowledged is lost) and installed in the engine, which ticks it from there. Not before: an op applied to the
 *   old copy during the load would be committed, then undone by installing what the load read (owns() is false
 *   meanwhile, so ops wait for the installed channel);
 * - a lease lost (taken over, or refused by a tick's fence between beats) or given up (over this node's share)
 *   demotes the channel: what was queued on it is refused with reason `channel_moved`, and it is loaded afresh as a
 *   copy that follows its new owner (following.ts);
 * - reload() loads a copy afresh (a gap in the owner's frames). A structural change made while a channel loads may
 *   be missing from what the load read: whileLoading() keeps it, and it is applied again once the load is installed.
 */
import type { Logger } from 'pino';
import type { EngineHost, StoredChannel } from '../engine/index.js';
import type { ChannelLeases } from './channel-leases.js';

export interface OwnershipDeps {
  leases: ChannelLeases;
  host: EngineHost;
  /** Loads one channel as committed (PostgresStore.loadChannel). */
  loadChannel: (channelId: string) => Promise<StoredChannel | undefined>;
  logger: Logger;
  /** How often leases are renewed and claimed. Default 500 ms. */
  beatMs?: number;
}

export class Ownership {
  /** Channels being loaded, with the structural changes made meanwhile: one list per load (a reload and a takeover may overlap). */
  private readonly loading = new Map<string, Set<(() => void)[]>>();
  /** Channels whose lease this node took, until what the load read is installed. */
  private readonly taking = new Set<string>();
  private readonly reloading = new Map<string, Promise<void>>();
  private readonly installedListeners: ((channelId: string) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: OwnershipDeps) {}

  /** Whether this node ticks the channel now: it holds the lease, and the channel it loaded is installed. */
  owns(channelId: string): boolean {
    return this.deps.leases.holds(channelId) && !this.taking.has(channelId);
  }

  /** Whether the channel is being loaded afresh, as a copy or taken over (its owner's frames are not applied meanwhile). */
  isReloading(channelId: string): boolean {
    return this.reloading.has(channelId) || this.taking.has(channelId);
  }

  /** `listener` runs each time a channel loaded from Postgres was installed (taken over or reloaded). */
  onInstalled(listener: (channelId: string) => void): void {
    this.installedListeners.push(listener);
  }

  /** A structural change to the channel, just applied: applied again after the load in progress, if one is. */
  whileLoading(channelId: string, again: () => void): void {
    for (const replay of this.loading.get(channelId) ?? []) replay.push(again);
  }

  /** Claims this node's share now, then every `beatMs`. */
  async start(): Promise<void> {
    this.deps.leases.onFencedOut((ids) => {
      for (const id of ids) {
        this.deps.logger.warn({ channelId: id }, 'tick refused: another node owns this channel now');
        this.letGo(id);
      }
    });
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.deps.beatMs ?? 500);
    this.timer.unref();
  }

  /** A beat now (a channel was just created: claimed at once if this node is under its share). */
  beatSoon(): void {
    void this.beat();
  }

  /** Stops beating; the leases are kept until leave(). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.beating;
  }

  /** Gives every lease up, so the other nodes take the channels over at once (after the engine stopped ticking). */
  async leave(): Promise<void> {
    await this.deps.leases
      .leave()
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'leases not released: they expire in 3 s'));
  }

  /** Loads the channel's copy afresh from Postgres and installs it (unless this node owns it by then). */
  reload(channelId: string): Promise<void> {
    const running = this.reloading.get(channelId);
    if (running) return running;
    const done = this.load(channelId)
      .then(({ stored, replay }) => {
        if (!stored || this.deps.leases.holds(channelId) || this.stopped || !this.deps.host.position(channelId)) return;
        this.install(stored, replay);
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, channelId }, 'channel reload failed'))
      .finally(() => this.reloading.delete(channelId));
    this.reloading.set(channelId, done);
    return done;
  }

  private beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.beating ??= this.runBeat().finally(() => (this.beating = null));
    return this.beating;
  }

  private async runBeat(): Promise<void> {
    try {
      const { acquired, lost, surplus } = await this.deps.leases.beat();
      for (const id of acquired.keys()) this.taking.add(id);
      for (const id of lost) {
        if (!this.deps.host.position(id)) continue; // deleted: its lease went with it
        this.deps.logger.warn({ channelId: id }, 'channel lease lost: another node ticks it now');
        this.letGo(id);
      }
      for (const id of surplus) this.deps.host.demote(id);
      await this.deps.leases.release(surplus);
      for (const id of surplus) void this.reload(id);
      for (const id of acquired.keys()) await this.takeOver(id);
    } catch (err) {
      this.deps.logger.error({ err }, 'lease beat failed');
    }
  }

  /** No longer ticked here: what was queued goes to the new owner, and the copy is loaded afresh. */
  private letGo(channelId: string): void {
    this.deps.host.demote(channelId);
    void this.reload(channelId);
  }

  private async takeOver(channelId: string): Promise<void> {
    const loaded = await this.load(channelId).catch((err: unknown) => {
      this.deps.logger.warn({ err, channelId }, 'channel not loaded: its lease is given up');
      return { stored: undefined, replay: [] };
    });
    this.taking.delete(channelId);
    const { stored, replay } = loaded;
    if (!stored) {
      await this.deps.leases.release([channelId]);
      return;
    }
    // Installed even over a copy that was up to date: the store has exactly what was committed.
    this.install(stored, replay);
    this.deps.logger.info({ channelId, frame: stored.live.frame }, 'channel taken over');
  }

  private async load(channelId: string): Promise<{ stored: StoredChannel | undefined; replay: (() => void)[] }> {
    const replay: (() => void)[] = [];
    let loads = this.loading.get(channelId);
    if (!loads) this.loading.set(channelId, (loads = new Set()));
    loads.add(replay);
    try {
      return { stored: await this.deps.loadChannel(channelId), replay };
    } finally {
      loads.delete(replay);
      if (loads.size === 0 && this.loading.get(channelId) === loads) this.loading.delete(channelId);
    }
  }

  private install(stored: StoredChannel, replay: (() => void)[]): void {
    this.deps.host.install(stored);
    for (const again of replay) again();
    for (const listener of this.installedListeners) listener(stored.channel.id);
  }
}

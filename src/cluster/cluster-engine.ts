/**
 * The engine of one node among several (docs/architecture/several-nodes.md), by composition: a FrameEngine that ticks
 * only the channels whose lease this node holds (its placement), with
 *
 * - ownership.ts — the leases' beat: channels taken over are loaded and installed, channels lost are demoted;
 * - following.ts — copies of the channels owned elsewhere, kept up to date from their owners' frames;
 * - forwarding-engine.ts — ops for channels owned elsewhere go to their owner;
 * - announcing-engine.ts — structural writes are applied here and announced to the other nodes.
 *
 * It implements Engine, like the FrameEngine alone (one node): the API, the transport and the operations never know
 * which one main.ts picked.
 */
import type { Logger } from 'pino';
import { FrameEngine, type Broker, type EngineDeps, type StoredChannel } from '../engine/index.js';
import type { Announcements } from './announcements.js';
import { createAnnouncingEngine, type AnnouncingEngine } from './announcing-engine.js';
import type { ChannelLeases } from './channel-leases.js';
import type { ClusterBus } from './cluster-bus.js';
import { Following } from './following.js';
import { createForwardingEngine } from './forwarding-engine.js';
import { Ownership } from './ownership.js';

export interface ClusterEngineDeps extends Omit<EngineDeps, 'placement'> {
  broker: Broker;
  /** Loads one channel as committed (PostgresStore.loadChannel). */
  loadChannel: (channelId: string) => Promise<StoredChannel | undefined>;
  leases: ChannelLeases;
  bus: ClusterBus;
  announcements: Announcements;
  logger: Logger;
  /** How often leases are renewed and claimed. Default 500 ms. */
  beatMs?: number;
  /** How long a forwarded op may wait for an owner and its answer. Default 5,000 ms. */
  forwardTimeoutMs?: number;
}

/**
 * start(), after load(): follows every channel, answers other nodes' forwarded ops, and claims this node's share of
 * the leases. stop(): stops claiming, ticks what is queued one last time, gives every lease up, stops following.
 * Other nodes' announcements reach `heard` (Announcements.hear, wired by the node: cluster-node.ts).
 */
export type ClusterEngine = AnnouncingEngine;

export function createClusterEngine(deps: ClusterEngineDeps): ClusterEngine {
  const { leases, bus, logger } = deps;
  // Ticked once this node holds the lease and installed what it loaded (ownership.ts), not during the load.
  const frames = new FrameEngine({
    ...deps,
    placement: { ticks: (channelId: string): boolean => ownership.owns(channelId) },
  });
  const { host } = frames;
  const ownership = new Ownership({ leases, host, loadChannel: deps.loadChannel, logger, beatMs: deps.beatMs });
  const following = new Following({ broker: deps.broker, host, ownership, logger });
  ownership.onInstalled((channelId) => following.installed(channelId));
  const forwarding = createForwardingEngine(frames, {
    host,
    ownership,
    leases,
    following,
    bus,
    forwardTimeoutMs: deps.forwardTimeoutMs,
  });
  const engine = createAnnouncingEngine(forwarding, {
    host,
    announcements: deps.announcements,
    ownership,
    following,
  });
  return {
    ...engine,
    async start() {
      frames.start();
      following.followAll();
      bus.onRequest((body) => forwarding.answer(body));
      await ownership.start();
    },
    async stop() {
      await ownership.stop();
      await frames.stop();
      await ownership.leave();
      following.stop();
    },
  };
}

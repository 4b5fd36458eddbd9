/**
 * Every control message nodes send each other (docs/architecture/several-nodes.md), as one typed union: changes to
 * channels and scenes (written to Postgres by the node that made them, announced so the others' copies follow), keys
 * revoked, webhook subscriptions changed. Sent by announce(), broadcast on the cluster bus; what arrives is checked
 * at the edge (a message that is not an Announcement is dropped and logged) and dispatched in one switch, hear().
 *
 * Fire and forget: what an announcement carries is in Postgres already, so a node that missed one has it the next
 * time it loads the channel (or reads the keys, the subscriptions). A broadcast that fails is logged with its kind.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { isFrameRate, type ChannelRecord, type FrameRate, type SceneRecord } from '../engine/index.js';
import type { OutputView, RefusedOutputs, SceneDefinition } from '@onair/protocol';
import type { OutputsSummary } from '../outputs/outputs.js';
import type { ClusterBus } from './cluster-bus.js';

const Channel = z.object({
  id: z.string(),
  orgId: z.string(),
  name: z.string(),
  fps: z.custom<FrameRate>((v) => typeof v === 'number' && isFrameRate(v)),
  width: z.number(),
  height: z.number(),
  outputToken: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<ChannelRecord>;

const Scene = z.object({
  id: z.string(),
  channelId: z.string(),
  name: z.string(),
  // Checked by the API of the node that saved it, and stored: nodes trust each other (docs, "Known limits").
  definition: z.custom<SceneDefinition>((v) => typeof v === 'object' && v !== null),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<SceneRecord>;

// Built by the node whose outputs they are: nodes trust each other (as for scenes), the shape is checked here.
const OutputsSummary = z.object({
  channelId: z.string(),
  views: z.array(z.custom<OutputView>((v) => typeof v === 'object' && v !== null)),
  total: z.number(),
  refused: z.custom<RefusedOutputs | null>((v) => typeof v === 'object'),
  programOutputs: z.number(),
  painted: z.array(z.string()),
}) satisfies z.ZodType<OutputsSummary>;

const Announcement = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('channel-added'), record: Channel, frame: z.number() }),
  z.object({ kind: z.literal('channel-updated'), record: Channel }),
  z.object({ kind: z.literal('channel-removed'), channelId: z.string() }),
  z.object({ kind: z.literal('scene-upserted'), scene: Scene }),
  z.object({ kind: z.literal('scene-removed'), channelId: z.string(), sceneId: z.string() }),
  z.object({ kind: z.literal('key-revoked'), keyId: z.string() }),
  z.object({ kind: z.literal('webhooks-changed') }),
  z.object({ kind: z.literal('outputs'), node: z.string(), summary: OutputsSummary }),
]);
export type Announcement = z.infer<typeof Announcement>;

/** What the engines of the other nodes apply (announcing-engine.ts). */
export interface ChannelAnnouncementHandlers {
  channelAdded(record: ChannelRecord, frame: number): void;
  channelUpdated(record: ChannelRecord): void;
  channelRemoved(channelId: string): void;
  sceneUpserted(scene: SceneRecord): void;
  sceneRemoved(channelId: string, sceneId: string): void;
}

/** Who acts on what other nodes announce: one handler per kind. What one throws is logged. */
export interface AnnouncementHandlers extends ChannelAnnouncementHandlers {
  keyRevoked(keyId: string): void;
  webhooksChanged(): void;
  /** A node's outputs of a channel (docs/outputs.md, "Several nodes"). */
  outputsShared(node: string, summary: OutputsSummary): void;
}

export class Announcements {
  constructor(
    private readonly bus: ClusterBus,
    private readonly logger: Logger,
  ) {}

  /** To every other node; a failure is logged (warn, with the kind), never thrown. */
  announce(message: Announcement): void {
    this.bus.broadcast(message).catch((err: unknown) => {
      this.logger.warn({ err, kind: message.kind }, 'announcement to the other nodes failed');
    });
  }

  /** Starts acting on other nodes' announcements; returns the function that stops it. */
  hear(handlers: AnnouncementHandlers): () => void {
    return this.bus.onControl((body, from) => {
      const parsed = Announcement.safeParse(body);
      if (!parsed.success) {
        this.logger.warn({ from, issues: parsed.error.issues.slice(0, 3) }, 'announcement not understood');
        return;
      }
      const message = parsed.data;
      try {
        switch (message.kind) {
          case 'channel-added':
            return handlers.channelAdded(message.record, message.frame);
          case 'channel-updated':
            return handlers.channelUpdated(message.record);
          case 'channel-removed':
            return handlers.channelRemoved(message.channelId);
          case 'scene-upserted':
            return handlers.sceneUpserted(message.scene);
          case 'scene-removed':
            return handlers.sceneRemoved(message.channelId, message.sceneId);
          case 'key-revoked':
            return handlers.keyRevoked(message.keyId);
          case 'webhooks-changed':
            return handlers.webhooksChanged();
          case 'outputs':
            return handlers.outputsShared(message.node, message.summary);
        }
      } catch (err) {
        this.logger.warn({ err, kind: message.kind, from }, 'announcement not applied');
      }
    });
  }
}

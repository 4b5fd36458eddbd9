/**
 * Structural writes on any node (docs/architecture/several-nodes.md, "Routing"): an Engine that applies a channel or
 * scene change to the engine it wraps, as one node would, then announces it to the other nodes (announcements.ts);
 * `heard` applies theirs. The API has written the change to Postgres first, on whichever node received it.
 *
 * Applying is the same on the owner and on a follower: the engine's placement says whether the channel is ticked here
 * (the owner's next frame carries the change to every renderer) or not (the copy just takes it). A change made while
 * the channel is being loaded from Postgres may be missing from what the load read: it is applied again once the load
 * is installed (ownership.ts). A node that misses an announcement has the change when it next loads the channel.
 */
import { passThrough, type ChannelRecord, type Engine, type EngineHost } from '../engine/index.js';
import type { Announcements, ChannelAnnouncementHandlers } from './announcements.js';
import type { Following } from './following.js';
import type { Ownership } from './ownership.js';

export interface AnnouncingDeps {
  host: EngineHost;
  announcements: Pick<Announcements, 'announce'>;
  ownership: Pick<Ownership, 'whileLoading' | 'beatSoon'>;
  following: Pick<Following, 'follow' | 'unfollow'>;
}

/** The Engine, and what applies the other nodes' announcements. */
export interface AnnouncingEngine extends Engine {
  readonly heard: ChannelAnnouncementHandlers;
}

export function createAnnouncingEngine(inner: Engine, deps: AnnouncingDeps): AnnouncingEngine {
  const { announcements, ownership, following } = deps;
  /** Applies a change to a channel now, and again after a load of it in progress. */
  const apply = (channelId: string, change: () => void) => {
    ownership.whileLoading(channelId, change);
    change();
  };
  const added = (record: ChannelRecord, frame: number) => {
    inner.addChannel(record, frame);
    following.follow(record.id);
  };
  return {
    ...passThrough(inner),
    addChannel(record, frame = 0) {
      added(record, frame);
      announcements.announce({ kind: 'channel-added', record, frame });
      // Claimed at once if this node is under its share, so the first op does not wait for a beat.
      ownership.beatSoon();
    },
    updateChannel(record) {
      apply(record.id, () => inner.updateChannel(record));
      announcements.announce({ kind: 'channel-updated', record });
    },
    removeChannel(channelId) {
      following.unfollow(channelId);
      inner.removeChannel(channelId);
      announcements.announce({ kind: 'channel-removed', channelId });
    },
    upsertScene(scene) {
      apply(scene.channelId, () => inner.upsertScene(scene));
      announcements.announce({ kind: 'scene-upserted', scene });
    },
    removeScene(channelId, sceneId) {
      apply(channelId, () => inner.removeScene(channelId, sceneId));
      announcements.announce({ kind: 'scene-removed', channelId, sceneId });
    },
    heard: {
      channelAdded(record, frame) {
        // Applied at once (a new channel has no scenes yet): the announcements after it find it here.
        if (!inner.has(record.id)) added(record, frame);
      },
      channelUpdated(record) {
        if (inner.has(record.id)) apply(record.id, () => inner.updateChannel(record));
      },
      channelRemoved(channelId) {
        // The node that deleted it told the renderers.
        following.unfollow(channelId);
        deps.host.forget(channelId);
      },
      sceneUpserted(scene) {
        if (inner.has(scene.channelId)) apply(scene.channelId, () => inner.upsertScene(scene));
      },
      sceneRemoved(channelId, sceneId) {
        if (inner.has(channelId)) apply(channelId, () => inner.removeScene(channelId, sceneId));
      },
    },
  };
}

/**
 * Domain events (the types outgoing webhooks will deliver). A tick's events travel in its ChannelChanges, so
 * the store writes them in the tick's transaction (the event log); once the tick is durable the engine hands
 * them to `onEvents`. The engine does not know who listens.
 */
import type { Actor } from '@onair/protocol';
import type { ChangeSource } from './model.js';

export const ENGINE_EVENT_TYPES = [
  'channel.played',
  'channel.scene_loaded',
  'channel.trigger_fired',
  'channel.bind_updated',
  'channel.cleared',
  'channel.updated_on_air',
  'channel.undone',
  'channel.redone',
  'channel.schedule_missed',
  'channel.schedule_failed',
  'rundown.item_cued',
  'rundown.item_taken',
  'rundown.item_stopped',
] as const;
export type EngineEventType = (typeof ENGINE_EVENT_TYPES)[number];

/**
 * An event in the envelope outgoing webhooks deliver (docs/api.md, "Events"). The id is assigned when the
 * tick is prepared, so the event is written in the same transaction as the change that caused it.
 */
export interface EngineEvent {
  /** `evt_…`, sortable by creation. */
  id: string;
  type: EngineEventType;
  orgId: string;
  channelId: string;
  /** ISO 8601 */
  createdAt: string;
  /** Every event says where it came in (`source`) and who did it (`actor`). */
  data: Record<string, unknown> & { source: ChangeSource; actor: Actor };
}

/**
 * Domain events (the types outgoing webhooks will deliver). A tick's events travel in its ChannelChanges, so
 * the store writes them in the tick's transaction (the event log); once the tick is durable the engine hands
 * them to `onEvents`. The engine does not know who listens.
 */
import type { Actor } from '@onair/protocol';
import type { ChangeSource } from './model.js';

/**
 * Events about what the output pages painted (docs/outputs.md): raised outside the channel's state by whoever watches
 * the outputs, and recorded in the channel's next tick (an `event` op) like every other event.
 */
export const OUTPUT_EVENT_TYPES = [
  'output.connected',
  'output.lost',
  'output.lagging',
  'output.error',
  'channel.unconfirmed',
] as const;
export type OutputEventType = (typeof OUTPUT_EVENT_TYPES)[number];

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
  // Appended, never inserted: a stored batch names its types by their place in this list (store/event-batches.ts).
  ...OUTPUT_EVENT_TYPES,
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

/**
 * Domain events the engine emits after a tick commits (the event types outgoing webhooks will deliver). Webhooks and
 * the event log consume them; the engine does not know who listens.
 */
import type { InputValue } from '../protocol/index.js';
import type { ChangeSource } from './model.js';

export type EngineEventType =
  'channel.played' | 'channel.scene_loaded' | 'channel.trigger_fired' | 'channel.bind_updated' | 'channel.cleared';

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
  data: Record<string, unknown> & { source: ChangeSource };
}

export function bindUpdated(
  base: Omit<EngineEvent, 'type' | 'data'>,
  inputs: Record<string, InputValue>,
  previous: Record<string, InputValue>,
  frame: number,
  source: ChangeSource,
): EngineEvent {
  return { ...base, type: 'channel.bind_updated', data: { inputs, previous, frame, source } };
}

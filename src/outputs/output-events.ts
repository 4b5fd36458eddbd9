/**
 * The events an output raises (docs/outputs.md, "Events"), with their payloads, and the caps that keep a flapping or
 * broken page from flooding the event log: at most one `output.lagging` per output in any 30 s, at most 6
 * `output.error` per output in any minute (failures past that are still listed, and counted as suppressed).
 */
import type { OutputError } from '@onair/protocol';
import type { OutputEventType } from '../engine/index.js';
import type { WatchedInstance } from './on-air-watch.js';
import type { OutputState } from './output-state.js';

export const LAGGING_EVERY_MS = 30_000;
export const ERROR_EVENTS_PER_MINUTE = 6;

export type RaisedEvent = { type: OutputEventType; data: Record<string, unknown> };

/** What every output event says of the output. */
function who(o: OutputState): Record<string, unknown> {
  const r = o.report!;
  return { outputId: o.id, kind: r.kind, bus: r.bus, address: o.address };
}

export function connected(o: OutputState): RaisedEvent {
  const r = o.report!;
  const size = { width: r.width, height: r.height };
  return {
    type: 'output.connected',
    data: { ...who(o), connectedAt: new Date(o.connectedAt).toISOString(), paintedFrame: r.frame, fps: r.fps, size },
  };
}

export function lost(o: OutputState, closeCode: number): RaisedEvent {
  const connectedAt = new Date(o.connectedAt).toISOString();
  return { type: 'output.lost', data: { ...who(o), connectedAt, paintedFrame: o.report!.frame, closeCode } };
}

export function lagging(o: OutputState, now: number): RaisedEvent {
  const data = { ...who(o), paintedFrame: o.report!.frame, lagFrames: o.lag, silentMs: now - o.reportedAt };
  return { type: 'output.lagging', data };
}

export function failed(o: OutputState, errors: OutputError[]): RaisedEvent {
  return { type: 'output.error', data: { ...who(o), errors } };
}

export function unconfirmed(instance: WatchedInstance, frames: number, outputs: number): RaisedEvent {
  const { layer, sceneId, itemId, since } = instance;
  return { type: 'channel.unconfirmed', data: { layer, sceneId, itemId, since, frames, outputs } };
}

/** Per output: when it last raised `output.lagging`, and its recent `output.error` events. */
export class EventCaps {
  private readonly laggingAt = new WeakMap<OutputState, number>();
  private readonly errorsAt = new WeakMap<OutputState, number[]>();

  lagging(o: OutputState, now: number): boolean {
    const last = this.laggingAt.get(o);
    if (last !== undefined && now - last < LAGGING_EVERY_MS) return false;
    this.laggingAt.set(o, now);
    return true;
  }

  error(o: OutputState, now: number): boolean {
    const recent = (this.errorsAt.get(o) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= ERROR_EVENTS_PER_MINUTE) return false;
    recent.push(now);
    this.errorsAt.set(o, recent);
    return true;
  }
}

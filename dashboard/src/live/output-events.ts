/**
 * The output events (docs/outputs.md, "Events") in words for the event feed, and the ones that raise the live
 * view's alert line from the feed (the `outputs` message raises the others at once).
 */
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import { outputName, text } from './output-labels.js';

interface EventLike {
  type: string;
  data: Record<string, unknown>;
}

/** The event in words, or null when it is no output event. */
export function outputEventSummary(e: EventLike, state: ChannelState): string | null {
  const d = e.data;
  switch (e.type) {
    case 'output.connected':
      return `Output connected: ${outputName(d)}`;
    case 'output.lost':
      return `Output lost: ${outputName(d)}${d.closeCode === 1006 ? ' (connection dropped)' : ''}`;
    case 'output.lagging':
      return typeof d.silentMs === 'number' && d.silentMs > 5000
        ? `Output lagging: ${outputName(d)}, silent for ${Math.round(d.silentMs / 1000)} s`
        : `Output lagging: ${outputName(d)}, ${String(d.lagFrames)} frames behind`;
    case 'output.error':
      return `Output error: ${outputName(d)}: ${loadErrors(d.errors)}`;
    case 'channel.unconfirmed':
      return unconfirmed(d, state);
    default:
      return null;
  }
}

/** The events of a new poll that the alert line shows: something on program that no output painted. */
export function eventAlerts(events: EventLike[], state: ChannelState): string[] {
  return events.filter((e) => e.type === 'channel.unconfirmed').map((e) => unconfirmed(e.data, state));
}

function unconfirmed(d: Record<string, unknown>, state: ChannelState): string {
  const scene = typeof d.sceneId === 'string' ? (state.scenes[d.sceneId]?.name ?? d.sceneId) : 'a scene';
  return `Not confirmed: ${scene} on program (layer ${String(d.layer)}) but no output painted it in ${String(d.frames)} frames`;
}

function loadErrors(errors: unknown): string {
  const list = Array.isArray(errors) ? (errors as { url?: unknown; message?: unknown }[]) : [];
  if (list.length === 0) return 'a load failure';
  return list.map((e) => `could not load ${text(e.url, 'a file')} (${text(e.message, '')})`).join('; ');
}

/**
 * Options name things by id (what a dropdown stores) or by a name typed in, or put there by a Companion variable:
 * these find the thing either way. A name matches case-insensitively, after the id has had its chance.
 */
import type { RundownItem, SceneView, SourceSummary } from '@onair/protocol';
import type { LiveChannel, LiveChannels } from './live-channels.js';

export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

function byIdOrName<T>(items: T[], value: unknown, id: (t: T) => string, name: (t: T) => string): T | undefined {
  const wanted = text(value);
  if (wanted === '') return undefined;
  const lower = wanted.toLowerCase();
  return items.find((t) => id(t) === wanted) ?? items.find((t) => name(t).toLowerCase() === lower);
}

/** The channel an option names; an empty option means the only channel followed, when there is one. */
export function findChannel(live: LiveChannels, value: unknown): LiveChannel | undefined {
  const channels = live.list();
  if (text(value) === '' && channels.length === 1) return channels[0];
  return byIdOrName(
    channels,
    value,
    (c) => c.id,
    (c) => c.name,
  );
}

export function findScene(channel: LiveChannel, value: unknown): SceneView | undefined {
  return byIdOrName(
    Object.values(channel.state.scenes),
    value,
    (s) => s.id,
    (s) => s.name,
  );
}

export function findRundown(channel: LiveChannel, value: unknown) {
  const rundowns = Object.values(channel.state.rundowns);
  if (text(value) === '' && rundowns.length === 1) return rundowns[0];
  return byIdOrName(
    rundowns,
    value,
    (r) => r.id,
    (r) => r.name,
  );
}

export function findItem(channel: LiveChannel, value: unknown): { rundownId: string; item: RundownItem } | undefined {
  const items = Object.values(channel.state.rundowns).flatMap((r) =>
    r.items.map((item) => ({ rundownId: r.id, item })),
  );
  return byIdOrName(
    items,
    value,
    (x) => x.item.id,
    (x) => x.item.label,
  );
}

export function findSource(channel: LiveChannel, value: unknown): SourceSummary | undefined {
  return byIdOrName(
    channel.sources,
    value,
    (s) => s.id,
    (s) => s.name,
  );
}

/** An input's name as typed: names are case-sensitive on the server, so an exact name is kept as is. */
export function inputName(channel: LiveChannel, value: unknown): string {
  const wanted = text(value);
  if (wanted in channel.state.inputs || wanted in channel.state.clocks) return wanted;
  const lower = wanted.toLowerCase();
  const names = [...Object.keys(channel.state.inputs), ...Object.keys(channel.state.clocks)];
  return names.find((n) => n.toLowerCase() === lower) ?? wanted;
}

/** A layer option: 0–99, or undefined for "every layer" (empty, or not a number). */
export function layerOf(value: unknown): number | undefined {
  const t = text(value);
  if (t === '' || t === 'all') return undefined;
  const n = Number(t);
  return Number.isInteger(n) && n >= 0 && n <= 99 ? n : undefined;
}

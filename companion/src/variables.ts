/**
 * The module's variables: per followed channel, `<channel>.…` (the channel's name, sanitised to Companion's
 * `[a-zA-Z0-9-_.]`), and `connected`. Values are computed whole and only the ones that changed are sent; a clock's
 * `m:ss` is computed locally from its anchor, so a running clock costs no traffic.
 */
import { clockTime, type InputValue, type Rundown } from '@onair/protocol';
import { declaredInputs, type LiveChannel, type LiveChannels } from './live-channels.js';

export type Values = Record<string, string | number | boolean>;
export type Definitions = Record<string, { name: string }>;

/** A name as one segment of a variable id: Companion allows `[a-zA-Z0-9-_.]`, and `.` separates segments here. */
export function segment(name: string): string {
  const s = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return s === '' ? '_' : s;
}

/** Each channel's prefix: its sanitised name, made unique with its id's tail when two names meet. */
export function channelPrefixes(live: LiveChannels): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const channel of live.list()) {
    let prefix = segment(channel.name);
    if (taken.has(prefix)) prefix = `${prefix}_${channel.id.slice(-6)}`;
    taken.add(prefix);
    out.set(channel.id, prefix);
  }
  return out;
}

export function rundownSegments(rundowns: Rundown[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const r of [...rundowns].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    let s = segment(r.name);
    if (taken.has(s)) s = `${s}_${r.id.slice(-6)}`;
    taken.add(s);
    out.set(r.id, s);
  }
  return out;
}

/** The layers a channel's scenes sit on, and those something is on. */
function layers(channel: LiveChannel): number[] {
  const set = new Set<number>();
  for (const s of Object.values(channel.state.scenes)) set.add(s.definition.layer);
  for (const e of [...channel.state.program, ...channel.state.preview]) set.add(e.layer);
  return [...set].sort((a, b) => a - b);
}

export function variableDefinitions(live: LiveChannels): Definitions {
  const defs: Definitions = { connected: { name: 'Connected to the onair server (true / false)' } };
  const prefixes = channelPrefixes(live);
  for (const channel of live.list()) {
    const p = prefixes.get(channel.id)!;
    const n = channel.name;
    defs[`${p}.program`] = { name: `${n}: scenes on program` };
    defs[`${p}.preview`] = { name: `${n}: scenes in preview` };
    for (const layer of layers(channel)) {
      defs[`${p}.program.layer_${layer}`] = { name: `${n}: scene on program, layer ${layer}` };
      defs[`${p}.preview.layer_${layer}`] = { name: `${n}: scene in preview, layer ${layer}` };
    }
    for (const scene of Object.values(channel.state.scenes)) {
      defs[`${p}.scene.${segment(scene.name)}`] = { name: `${n}: scene ${scene.name} (program, preview or empty)` };
    }
    for (const [name, def] of declaredInputs(channel.state.scenes)) {
      if (def.type === 'clock') defs[`${p}.clock.${segment(name)}`] = { name: `${n}: clock ${name} (m:ss)` };
      else defs[`${p}.input.${segment(name)}`] = { name: `${n}: input ${name}` };
    }
    for (const [id, s] of rundownSegments(Object.values(channel.state.rundowns))) {
      const rundown = channel.state.rundowns[id]!;
      defs[`${p}.rundown.${s}.focus`] = { name: `${n}: rundown ${rundown.name}, focused item` };
      defs[`${p}.rundown.${s}.next`] = { name: `${n}: rundown ${rundown.name}, next item (what play next plays)` };
    }
    defs[`${p}.outputs`] = { name: `${n}: output health (ok, lagging, error, none)` };
    defs[`${p}.frame`] = { name: `${n}: last frame` };
  }
  return defs;
}

export function variableValues(live: LiveChannels, connected: boolean, now: number): Values {
  const values: Values = { connected };
  const prefixes = channelPrefixes(live);
  for (const channel of live.list()) {
    const p = prefixes.get(channel.id)!;
    const { state } = channel;
    const sceneName = (id: string) => state.scenes[id]?.name ?? id;
    values[`${p}.program`] = state.program.map((e) => sceneName(e.sceneId)).join(', ');
    values[`${p}.preview`] = state.preview.map((e) => sceneName(e.sceneId)).join(', ');
    for (const layer of layers(channel)) {
      const onAir = state.program.find((e) => e.layer === layer);
      const cued = state.preview.find((e) => e.layer === layer);
      values[`${p}.program.layer_${layer}`] = onAir ? sceneName(onAir.sceneId) : '';
      values[`${p}.preview.layer_${layer}`] = cued ? sceneName(cued.sceneId) : '';
    }
    for (const scene of Object.values(state.scenes)) {
      const where = (bus: readonly { sceneId: string }[]) => bus.some((e) => e.sceneId === scene.id);
      values[`${p}.scene.${segment(scene.name)}`] = where(state.program)
        ? 'program'
        : where(state.preview)
          ? 'preview'
          : '';
    }
    for (const [name, value] of Object.entries(state.inputs)) values[`${p}.input.${segment(name)}`] = shown(value);
    Object.assign(values, clockValues(channel, p, now));
    for (const [id, s] of rundownSegments(Object.values(state.rundowns))) {
      const rundown = state.rundowns[id]!;
      const label = (item: Rundown['items'][number] | undefined) => (item ? item.label || sceneName(item.sceneId) : '');
      values[`${p}.rundown.${s}.focus`] = label(rundown.items.find((i) => i.id === rundown.focus));
      values[`${p}.rundown.${s}.next`] = label(nextItem(rundown));
    }
    values[`${p}.outputs`] = outputHealth(channel);
    values[`${p}.frame`] = state.frame;
  }
  return values;
}

/** What play next plays: the focused item, or the one after it when the focused one is on air or done. */
export function nextItem(rundown: Rundown): Rundown['items'][number] | undefined {
  const at = rundown.items.findIndex((i) => i.id === rundown.focus);
  if (at < 0) return undefined;
  const focused = rundown.items[at]!;
  return focused.state === 'program' || focused.state === 'done' ? rundown.items[at + 1] : focused;
}

export function outputHealth(channel: LiveChannel): 'ok' | 'lagging' | 'error' | 'none' {
  if (channel.outputs.length === 0) return 'none';
  if (channel.outputs.some((o) => o.health === 'error')) return 'error';
  if (channel.outputs.some((o) => o.health === 'lagging')) return 'lagging';
  return 'ok';
}

export function clockValues(channel: LiveChannel, prefix: string, now: number): Values {
  const values: Values = {};
  const defs = declaredInputs(channel.state.scenes);
  for (const [name, clock] of Object.entries(channel.state.clocks)) {
    const def = defs.get(name) ?? { direction: 'up' as const };
    const ms = clockTime(clock, def, now + channel.clockOffsetMs);
    values[`${prefix}.clock.${segment(name)}`] = formatClock(ms, def.direction === 'down');
  }
  return values;
}

/** `m:ss`: counting down, the second it is in rounded up (0:00 only at zero); counting up, rounded down. */
export function formatClock(ms: number, down: boolean): string {
  const seconds = down ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function shown(value: InputValue): string | number | boolean {
  if (value === null) return '';
  if (Array.isArray(value)) return JSON.stringify(value);
  return value;
}

/**
 * The as-run log's side of a tick (docs/as-run.md): which instances went on program and which left it, at the tick's
 * frame and by whom. It travels in the ChannelChange, so the store writes the log in the tick's own transaction: an
 * acknowledged take or clear always has its line, and a refused one has none.
 *
 * It is read off the buses, not off the ops: program at the start of the tick against program at its end. An
 * instance is the same while its layer holds the same scene, item and `since` (an update on air keeps them); an
 * instance that came and went within one tick was never drawn, so it is not in the log.
 */
import {
  SYSTEM_ACTOR,
  type Actor,
  type InputValue,
  type ProgramEntry,
  type Rundown,
  type SceneDefinition,
} from '@onair/protocol';
import { frameRate, frameStart, type FrameRate } from './frame-rate.js';
import type { Draft } from './draft.js';
import type { SceneRecord } from './model.js';

/** An interval that begins: what went on air, and the frame and actor that put it there. */
export interface AsRunStart {
  /** `asr_…`, sortable by creation. */
  id: string;
  layer: number;
  sceneId: string;
  sceneName: string;
  itemId: string | null;
  /** The rundown item's label, or the scene's name when it has none or is no item. */
  label: string;
  /** Every input the scene draws but clocks, as the frame drew it: the instance's own, else the channel's. */
  values: Record<string, InputValue>;
  /** The start of the frame (ISO 8601). */
  startAt: string;
  startFrame: number;
  takenBy: Actor;
}

/** The interval open on `layer` ends. */
export interface AsRunEnd {
  layer: number;
  endAt: string;
  endFrame: number;
  /** Who took it off (or put something else on its layer); null when the server stopped. */
  clearedBy: Actor | null;
}

/** The instance open on `layer` got new own values on air (an update): they are these now. */
export interface AsRunUpdate {
  layer: number;
  values: Record<string, InputValue>;
}

/** Applied in this order: ends, then updates, then starts (at most one open interval per layer). */
export interface AsRunChange {
  ended: AsRunEnd[];
  updated: AsRunUpdate[];
  started: AsRunStart[];
}

/**
 * Who moved each layer of program in a tick: the first to take its instance off, the last to put one on (with the id
 * of its `channel.played` event, which the interval's id repeats: `asr_` and the same digits).
 */
export class LayerActors {
  private readonly taken = new Map<number, { actor: Actor; eventId: string }>();
  private readonly left = new Map<number, Actor>();

  tookAir(layer: number, actor: Actor, eventId: string): void {
    this.taken.set(layer, { actor, eventId });
  }

  /** The first departure of a layer in a tick is that of the instance the tick began with. */
  leftAir(layer: number, actor: Actor): void {
    if (!this.left.has(layer)) this.left.set(layer, actor);
  }

  takerOf(layer: number): { actor: Actor; eventId: string } | undefined {
    return this.taken.get(layer);
  }

  clearerOf(layer: number): Actor | undefined {
    return this.left.get(layer);
  }
}

/** What a tick's as-run lines need to know of it and its channel. */
export interface AsRunContext {
  frame: number;
  fps: FrameRate;
  scenes: ReadonlyMap<string, SceneRecord>;
  rundowns: ReadonlyMap<string, Rundown>;
  /** The channel's effective value of an input at the end of the tick. */
  channelValue: (name: string) => InputValue;
  actors: LayerActors;
  /** A new event id (`evt_…`), for a line whose take is not known (never expected). */
  newId: () => string;
}

/** The as-run lines of a draft whose program changed; null when no interval moved. */
export function draftAsRun(d: Draft): AsRunChange | null {
  return asRunOf(d.rt.live.program, d.live.program, {
    frame: d.tick.frame,
    fps: d.rt.record.fps,
    scenes: d.rt.scenes,
    rundowns: d.live.rundowns,
    channelValue: (name) => d.effective(name),
    actors: d.actors,
    newId: d.tick.eventId,
  });
}

/** The as-run lines of a tick that moved program from `before` to `after`; null when no interval moved. */
export function asRunOf(
  before: readonly ProgramEntry[],
  after: readonly ProgramEntry[],
  ctx: AsRunContext,
): AsRunChange | null {
  const at = frameTime(ctx.fps, ctx.frame);
  const change: AsRunChange = { ended: [], updated: [], started: [] };
  for (const old of before) {
    const now = after.find((e) => e.layer === old.layer);
    if (now && sameInstance(old, now)) {
      if (!sameValues(old.values, now.values)) change.updated.push({ layer: now.layer, values: now.values });
      continue;
    }
    const clearedBy = ctx.actors.clearerOf(old.layer) ?? ctx.actors.takerOf(old.layer)?.actor ?? null;
    change.ended.push({ layer: old.layer, endAt: at, endFrame: ctx.frame, clearedBy });
  }
  for (const entry of after) {
    const old = before.find((e) => e.layer === entry.layer);
    if (old && sameInstance(old, entry)) continue;
    const scene = ctx.scenes.get(entry.sceneId);
    if (!scene) continue;
    const taker = ctx.actors.takerOf(entry.layer);
    const id = `asr_${(taker?.eventId ?? ctx.newId()).slice(4)}`;
    change.started.push(intervalStart(entry, scene, ctx, { id, at, takenBy: taker?.actor ?? SYSTEM_ACTOR }));
  }
  const moved = change.ended.length + change.updated.length + change.started.length;
  return moved > 0 ? change : null;
}

/** The line of an instance on program from `at` (a take, or a restart that found it there). */
export function intervalStart(
  entry: ProgramEntry,
  scene: SceneRecord,
  ctx: Pick<AsRunContext, 'frame' | 'rundowns' | 'channelValue'>,
  line: { id: string; at: string; takenBy: Actor },
): AsRunStart {
  const { sceneId, layer, itemId } = entry;
  return {
    id: line.id,
    layer,
    sceneId,
    sceneName: scene.name,
    itemId,
    label: itemLabel(itemId, ctx.rundowns) || scene.name,
    values: drawnValues(scene.definition, entry.values, ctx.channelValue),
    startAt: line.at,
    startFrame: ctx.frame,
    takenBy: line.takenBy,
  };
}

/** The start of `frame`, to the millisecond (ISO 8601). */
export function frameTime(fps: FrameRate, frame: number): string {
  return new Date(Math.round(frameStart(frameRate(fps), frame))).toISOString();
}

function drawnValues(
  def: SceneDefinition,
  own: Readonly<Record<string, InputValue>>,
  channelValue: (name: string) => InputValue,
): Record<string, InputValue> {
  const out: Record<string, InputValue> = {};
  for (const input of def.inputs) {
    if (input.type === 'clock') continue;
    const mine = Object.prototype.hasOwnProperty.call(own, input.name) ? own[input.name] : undefined;
    out[input.name] = mine !== undefined && mine !== null ? mine : channelValue(input.name);
  }
  return out;
}

function itemLabel(itemId: string | null, rundowns: ReadonlyMap<string, Rundown>): string {
  if (itemId === null) return '';
  for (const rundown of rundowns.values()) {
    const item = rundown.items.find((i) => i.id === itemId);
    if (item) return item.label;
  }
  return '';
}

function sameInstance(a: ProgramEntry, b: ProgramEntry): boolean {
  return a.since === b.since && a.sceneId === b.sceneId && a.itemId === b.itemId;
}

function sameValues(a: Readonly<Record<string, InputValue>>, b: Readonly<Record<string, InputValue>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

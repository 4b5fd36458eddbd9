/**
 * Which scene definitions a connection is sent (docs/api.md, "Connecting"): by default only the scenes on program
 * or preview, which is all a renderer draws; with `scenes=all`, every scene of the channel (the dashboard's live
 * view). A channel may hold a hundred scenes of 64 KiB; hundreds of renderers each getting all of them on every
 * connect is what this keeps from happening.
 */
import type { FrameMessage, PreviewEntry, ProgramEntry, SceneScope, SceneView } from '@onair/protocol';
import { scenesOnBuses } from './buses.js';

interface Buses {
  program: readonly ProgramEntry[];
  preview: readonly PreviewEntry[];
}

/** The scenes a `buses` connection holds: those on program or preview. */
export function sceneIdsOnBuses(buses: Buses): Set<string> {
  return new Set(scenesOnBuses(buses.program, buses.preview));
}

/** The snapshot's scenes for a scope. */
export function scopedScenes(scope: SceneScope, scenes: readonly SceneView[], buses: Buses): SceneView[] {
  if (scope === 'all') return [...scenes];
  const wanted = sceneIdsOnBuses(buses);
  return scenes.filter((s) => wanted.has(s.id));
}

/**
 * The frame for `buses` connections, from the frame every-scene connections get: definitions for scenes that came
 * onto a bus and for on-bus scenes that changed; `removedScenes` for scenes that left both buses. The same object
 * when nothing differs, so the transport serialises it once.
 */
export function busesFrame(
  all: FrameMessage,
  before: Buses,
  after: Buses,
  definition: (sceneId: string) => SceneView | undefined,
): FrameMessage {
  const had = sceneIdsOnBuses(before);
  const has = sceneIdsOnBuses(after);
  const changed = new Map((all.scenes ?? []).map((s) => [s.id, s]));
  const scenes: SceneView[] = [];
  for (const id of has) {
    const view = changed.get(id) ?? (had.has(id) ? undefined : definition(id));
    if (view) scenes.push(view);
  }
  const removed = [...had].filter((id) => !has.has(id));
  const show = all.rundowns !== undefined || all.removedRundowns !== undefined || all.schedule !== undefined;
  if (!show && sameScenes(all, scenes, removed)) return all;
  const frame: FrameMessage = { ...all };
  // The prepared show is for the dashboard (scenes=all), not for renderers.
  delete frame.rundowns;
  delete frame.removedRundowns;
  delete frame.schedule;
  delete frame.scenes;
  delete frame.removedScenes;
  if (scenes.length > 0) frame.scenes = scenes;
  if (removed.length > 0) frame.removedScenes = removed;
  return frame;
}

function sameScenes(all: FrameMessage, scenes: SceneView[], removed: string[]): boolean {
  const a = all.scenes ?? [];
  const r = all.removedScenes ?? [];
  return (
    a.length === scenes.length &&
    a.every((s, i) => s === scenes[i]) &&
    r.length === removed.length &&
    r.every((id, i) => id === removed[i])
  );
}

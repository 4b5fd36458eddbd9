/**
 * What a scene on a bus forbids (docs/api.md, "Scenes and templates"): deleting it, and moving it to another
 * layer. Both would change what is on air behind the operator's back; the operator takes it off first.
 */
import type { Engine, SceneOnBus, SceneRecord } from '../engine/index.js';
import { AppError } from '../errors.js';

/** 409 conflict when the scene is on program or preview. Call before deleting it from the store. */
export function assertDeletable(engine: Engine, channelId: string, sceneId: string): void {
  const buses = engine.sceneBuses(channelId, sceneId);
  if (buses.length === 0) return;
  throw new AppError(
    'conflict',
    `Scene ${sceneId} is ${where(buses)}. Clear it from program, and cue another scene on its layer in preview (or take it and clear it), before deleting it.`,
  );
}

/** 409 conflict when an edit moves a scene that is on program or preview to another layer. */
export function assertLayerKept(engine: Engine, before: SceneRecord, after: SceneRecord): void {
  const from = before.definition.layer;
  const to = after.definition.layer;
  if (from === to) return;
  const buses = engine.sceneBuses(before.channelId, before.id);
  if (buses.length === 0) return;
  throw new AppError(
    'conflict',
    `Scene ${before.id} is ${where(buses)}: its layer cannot change from ${from} to ${to} while it is on a bus, because each bus holds one scene per layer. Take it off program and preview first, or keep layer ${from}.`,
    { errors: [{ path: 'definition.layer', message: `must stay ${from} while the scene is on program or preview` }] },
  );
}

function where(buses: SceneOnBus[]): string {
  return buses.map((b) => `${b.bus === 'program' ? 'on program' : 'in preview'} on layer ${b.layer}`).join(' and ');
}

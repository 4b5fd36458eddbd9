/**
 * The OGraf Server API's view of a channel (docs/ograf.md, "Server API"): the channel is a renderer, each of its
 * layers a render target `{ "layer": n }`, and the scene instance on a layer a graphic instance. Pure.
 */
import type { BusEntry } from '@onair/protocol';
import { AppError } from '../../errors.js';

export const LAYERS = { min: 0, max: 99 } as const;

/** The renderTargetSchema every renderer answers: a layer of the channel. */
export const RENDER_TARGET_SCHEMA = {
  type: 'object',
  properties: { layer: { type: 'integer', minimum: LAYERS.min, maximum: LAYERS.max } },
  required: ['layer'],
} as const;

export interface RenderTarget {
  layer: number;
}

/** Ends the id of a copy loaded (on preview) over the same scene playing on its layer: two instances, two ids. */
const LOADED_OVER_PLAYING = '-next';

type Placed = Pick<BusEntry, 'layer' | 'sceneId'>;

/**
 * A graphic instance: one scene on one layer, on preview (loaded) or program (playing), `L<layer>-<sceneId>`. A copy
 * loaded while the same scene plays on that layer (the next name of a lower third) is `L<layer>-<sceneId>-next`.
 */
export function instanceId(entry: Placed, bus: 'program' | 'preview' = 'program', program: readonly Placed[] = []) {
  const over = bus === 'preview' && program.some((e) => e.layer === entry.layer && e.sceneId === entry.sceneId);
  return `L${entry.layer}-${entry.sceneId}${over ? LOADED_OVER_PLAYING : ''}`;
}

/**
 * The entry an instance id names among a layer's program and preview entries: a `-next` id its preview copy (once
 * taken, the copy playing), any other its program copy (or the one loaded, before it plays).
 */
export function entryOfInstance<E extends Placed>(
  id: string,
  onProgram: readonly E[],
  onPreview: readonly E[],
): { entry: E; onProgram: boolean } | null {
  const next = id.endsWith(LOADED_OVER_PLAYING);
  const plain = next ? id.slice(0, -LOADED_OVER_PLAYING.length) : id;
  const playing = onProgram.find((e) => instanceId(e) === plain);
  const loaded = onPreview.find((e) => instanceId(e) === plain);
  const entry = next ? (loaded ?? playing) : (playing ?? loaded);
  return entry ? { entry, onProgram: entry === playing } : null;
}

/** The OGraf graphic id of a native scene: the id its export's manifest carries. */
export function sceneGraphicId(sceneId: string): string {
  return `onair.scene.${sceneId}`;
}

/** The graphic a scene plays: the imported graphic (`gr_…`) it is made from, or the native scene itself. */
export function graphicIdOf(scene: { id: string; definition: { graphic?: { id: string } | undefined } }): string {
  return scene.definition.graphic?.id ?? sceneGraphicId(scene.id);
}

/** The scene an OGraf graphic id names, or null when it names no native scene. */
export function sceneOfGraphicId(graphicId: string): string | null {
  return graphicId.startsWith('onair.scene.') ? graphicId.slice('onair.scene.'.length) : null;
}

/** `{ "layer": n }`, as a JSON string (the target route's query) or parsed; anything else is a 404: no such target. */
export function renderTargetOf(value: unknown): RenderTarget {
  let target = value;
  if (typeof value === 'string') {
    try {
      target = JSON.parse(value) as unknown;
    } catch {
      target = null;
    }
  }
  const layer = (target as { layer?: unknown } | null)?.layer;
  const keys = typeof target === 'object' && target !== null ? Object.keys(target) : [];
  if (!Number.isInteger(layer) || keys.length !== 1 || (layer as number) < LAYERS.min || (layer as number) > LAYERS.max)
    throw new AppError('not_found', `No such render target: give { "layer": n } with n from 0 to 99.`);
  return { layer: layer as number };
}

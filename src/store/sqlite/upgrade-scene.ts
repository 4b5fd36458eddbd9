/**
 * Scene definitions stored before format version 1 (`{ inputs, triggers: string[], layers }`), turned into
 * format v1 by migration 4. The picture stays the same: every old layer becomes the element that draws it,
 * on scene layer 0, entering and leaving with a cut as before; each named trigger becomes a flash.
 *
 * - `rect` becomes a `box` (its `color` the fill, `radius` and `opacity` kept).
 * - `text` keeps text, size, weight, colour and alignment. Its `background`, which filled the text's box,
 *   becomes a box of that colour just before it (same place, same `visibleIf`). A `fontFamily` that is not
 *   one of the bundled typefaces is dropped (the renderer draws the default one, as a browser without that
 *   font did).
 * - `image` keeps its source and fit.
 * - A clock input counts up from its default as a number of milliseconds (0 when it had none), never stopping;
 *   triggers last 600 ms (the default), written out as the API writes new definitions.
 */
import {
  FONT_FAMILIES,
  SCENE_FORMAT_VERSION,
  type InputDef,
  type SceneDefinition,
  type SceneElement,
} from '@onair/protocol';

interface OldBox {
  x: number;
  y: number;
  width: number;
  height: number;
  visibleIf?: string;
}

type OldLayer =
  | (OldBox & {
      type: 'text';
      text: string;
      fontSize: number;
      fontFamily?: string;
      fontWeight?: number;
      color?: string;
      background?: string;
      align?: 'left' | 'center' | 'right';
    })
  | (OldBox & { type: 'rect'; color: string; radius?: number; opacity?: number })
  | (OldBox & { type: 'image'; src: string; fit?: 'contain' | 'cover' | 'fill' });

export interface OldSceneDefinition {
  inputs: InputDef[];
  triggers?: string[];
  layers?: OldLayer[];
}

/** True for a definition already in format v1 (it has a version). */
export function isCurrentScene(definition: unknown): definition is SceneDefinition {
  return typeof definition === 'object' && definition !== null && 'version' in definition;
}

export function upgradeScene(old: OldSceneDefinition): SceneDefinition {
  return {
    version: SCENE_FORMAT_VERSION,
    layer: 0,
    inputs: old.inputs.map(upgradeInput),
    elements: (old.layers ?? []).flatMap(upgradeLayer),
    transitions: { in: { type: 'cut', durationMs: 0 }, out: { type: 'cut', durationMs: 0 } },
    triggers: (old.triggers ?? []).map((name) => ({ name, animation: 'flash' as const, durationMs: 600 })),
  };
}

/** Inputs are kept; a clock is written out complete, as the API stores a new one: counting up, never stopping. */
function upgradeInput(def: InputDef): InputDef {
  if (def.type !== 'clock') return def;
  const ms = typeof def.default === 'number' ? def.default : 0;
  return { ...def, default: ms, direction: def.direction ?? 'up', stopAt: def.stopAt ?? null };
}

function upgradeLayer(layer: OldLayer): SceneElement[] {
  const box = placement(layer);
  switch (layer.type) {
    case 'rect':
      return [{ type: 'box', ...box, fill: layer.color, ...defined({ radius: layer.radius, opacity: layer.opacity }) }];
    case 'image':
      return [{ type: 'image', ...box, src: layer.src, ...defined({ fit: layer.fit }) }];
    case 'text': {
      const fontFamily = (FONT_FAMILIES as readonly string[]).includes(layer.fontFamily ?? '')
        ? (layer.fontFamily as (typeof FONT_FAMILIES)[number])
        : undefined;
      const style = defined({ fontWeight: layer.fontWeight, color: layer.color, align: layer.align, fontFamily });
      const text: SceneElement = { type: 'text', ...box, text: layer.text, fontSize: layer.fontSize, ...style };
      return layer.background ? [{ type: 'box', ...box, fill: layer.background }, text] : [text];
    }
    default:
      return [];
  }
}

function placement(layer: OldBox): OldBox {
  const { x, y, width, height } = layer;
  return { x, y, width, height, ...defined({ visibleIf: layer.visibleIf }) };
}

/** The fields of `fields` that are set: the stored definition carries no `undefined`. */
function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

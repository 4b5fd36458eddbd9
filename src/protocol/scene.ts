/**
 * Scene definitions as the server stores them and the renderer draws them.
 * No Node imports: this file is bundled into the renderer.
 */

export const INPUT_TYPES = ['number', 'text', 'boolean', 'color', 'image', 'clock'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/** A value an input can hold. `null` on the wire means "back to the scene default". */
export type InputValue = number | string | boolean | null;

export interface InputDef {
  name: string;
  type: InputType;
  label: string;
  default: InputValue;
}

/** Fields common to every layer: a box on the channel's stage, in stage pixels. */
export interface LayerBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Name of a boolean input; the layer is drawn only while that input is true. */
  visibleIf?: string;
}

/** Text whose `text` may hold `{inputName}` placeholders, replaced by the input's current value. */
export interface TextLayer extends LayerBox {
  type: 'text';
  text: string;
  fontSize: number;
  fontFamily?: string;
  fontWeight?: number;
  color?: string;
  background?: string;
  align?: 'left' | 'center' | 'right';
}

/** A filled rectangle; `color` may be a `{colorInput}` placeholder. */
export interface RectLayer extends LayerBox {
  type: 'rect';
  color: string;
  radius?: number;
  opacity?: number;
}

/** An image; `src` may be a `{imageInput}` placeholder. */
export interface ImageLayer extends LayerBox {
  type: 'image';
  src: string;
  fit?: 'contain' | 'cover' | 'fill';
}

export type Layer = TextLayer | RectLayer | ImageLayer;

export interface SceneDefinition {
  inputs: InputDef[];
  triggers: string[];
  layers: Layer[];
}

/** What a renderer needs of a scene. */
export interface SceneView {
  id: string;
  name: string;
  definition: SceneDefinition;
}

/** A clock input's state: displayed locally as `ms + (running ? now - at : 0)`. */
export interface ClockState {
  running: boolean;
  /** Elapsed milliseconds at `at`. */
  ms: number;
  /** Server epoch milliseconds at which `ms` was true. */
  at: number;
}

/** Replaces `{name}` placeholders with the formatted input value ('' for unknown names). */
export function interpolate(template: string, format: (name: string) => string): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => format(name));
}

/**
 * What to do with one layer of the bus in a drawing pass, given what it draws now and what the state
 * wants there. Pure: the stage carries it out.
 */
import type { SceneView } from '@onair/protocol';
import type { LayerChange } from './effects.js';

export type LayerAction =
  /** Already drawn as wanted (or nothing wanted and nothing drawn). */
  | { kind: 'keep' }
  /** The same instance with a changed definition: drawn again at once, without a transition. */
  | { kind: 'rebuild' }
  /** The wanted scene's fonts are not loaded yet: the layer stays as it is until they are. */
  | { kind: 'wait' }
  /** Another scene, another instance of the drawn one, or none: the drawn one gives way, animated or at once. */
  | { kind: 'change'; mode: 'cut' | 'animate'; at: number };

export interface LayerInput {
  drawn: SceneView | null;
  wanted: SceneView | null;
  /**
   * How the state got there, when a frame put another instance on this program layer (another scene, or a new take
   * of the same one); absent means draw it at once.
   */
  change: LayerChange | null;
  fontsReady: boolean;
  /** The preview bus is a monitor: it cuts. */
  bus: 'program' | 'preview';
}

export function planLayer(input: LayerInput): LayerAction {
  const { drawn, wanted, change } = input;
  if (wanted && !input.fontsReady && !(drawn && sameScene(drawn, wanted))) return { kind: 'wait' };
  if (!wanted && !drawn) return { kind: 'keep' };
  // A program change is a new instance; the preview monitor draws a new instance of its scene in place.
  const newInstance = change !== null && input.bus === 'program';
  if (wanted && drawn && wanted.id === drawn.id && !newInstance)
    return sameScene(drawn, wanted) ? { kind: 'keep' } : { kind: 'rebuild' };
  if (!change || input.bus === 'preview') return { kind: 'change', mode: 'cut', at: 0 };
  return { kind: 'change', mode: change.mode, at: change.at };
}

const texts = new WeakMap<SceneView, string>();

/** Same id and same definition: a snapshot's fresh copy of a drawn scene changes nothing on screen. */
export function sameScene(a: SceneView, b: SceneView): boolean {
  if (a === b) return true;
  return a.id === b.id && definitionText(a) === definitionText(b);
}

function definitionText(scene: SceneView): string {
  let text = texts.get(scene);
  if (text === undefined) {
    text = JSON.stringify(scene.definition);
    texts.set(scene, text);
  }
  return text;
}

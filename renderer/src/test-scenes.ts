/** Scene fixtures for the unit tests (not bundled: only tests import this file). */
import type { SceneDefinition, SceneElement, SceneView } from '@onair/protocol';

export function definition(over: Partial<SceneDefinition> = {}): SceneDefinition {
  return {
    version: 1,
    layer: 0,
    inputs: [{ name: 'name', type: 'text', label: 'Name', default: '' }],
    elements: [{ type: 'text', x: 0, y: 0, width: 100, height: 50, text: '{name}', fontSize: 20 }],
    transitions: { in: { type: 'fade', durationMs: 500 }, out: { type: 'fade', durationMs: 500 } },
    triggers: [],
    ...over,
  };
}

export function sceneView(id: string, over: Partial<SceneDefinition> = {}): SceneView {
  return { id, name: id, definition: definition(over) };
}

export function text(over: Partial<Extract<SceneElement, { type: 'text' }>> = {}): SceneElement {
  return { type: 'text', x: 0, y: 0, width: 100, height: 50, text: '{name}', fontSize: 20, ...over };
}

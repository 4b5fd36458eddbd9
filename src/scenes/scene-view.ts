import type { SceneRecord } from '../engine/index.js';

/** A scene as the API answers it: its layer, inputs and trigger names lifted out of the definition. */
export function sceneView(s: SceneRecord) {
  return {
    id: s.id,
    channelId: s.channelId,
    name: s.name,
    layer: s.definition.layer,
    inputs: s.definition.inputs,
    triggers: s.definition.triggers.map((t) => t.name),
    definition: s.definition,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

export type SceneView = ReturnType<typeof sceneView>;

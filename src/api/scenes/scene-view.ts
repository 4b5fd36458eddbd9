import type { SceneRecord } from '../../engine/index.js';

export function sceneView(s: SceneRecord) {
  return {
    id: s.id,
    channelId: s.channelId,
    name: s.name,
    inputs: s.definition.inputs,
    triggers: s.definition.triggers,
    definition: s.definition,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

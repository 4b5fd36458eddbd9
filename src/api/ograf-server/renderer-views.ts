/** What the OGraf Server API answers about a channel as a renderer and its layers as render targets. Pure. */
import type { ChannelState } from '../../engine/index.js';
import type { ChannelView } from '../../operations/index.js';
import type { SceneView } from '../../scenes/scene-view.js';
import { graphicIdOf, instanceId, RENDER_TARGET_SCHEMA, sceneGraphicId } from './render-targets.js';

type Scenes = readonly SceneView[];

function graphicOf(sceneId: string, scenes: Scenes) {
  const scene = scenes.find((s) => s.id === sceneId);
  return scene ? { id: graphicIdOf(scene), name: scene.name } : { id: sceneGraphicId(sceneId), name: sceneId };
}

/** A layer: what is loaded on it (preview) and playing (program), each instance once. */
export function targetInfo(layer: number, state: ChannelState, scenes: Scenes) {
  const entries = [...state.program, ...state.preview].filter((e) => e.layer === layer);
  const ids = [...new Set(entries.map((e) => e.sceneId))];
  return {
    renderTarget: { layer },
    name: `Layer ${layer}`,
    graphicInstances: ids.map((sceneId) => ({
      graphicInstanceId: instanceId({ layer, sceneId }),
      graphic: graphicOf(sceneId, scenes),
    })),
  };
}

export function rendererInfo(channel: ChannelView, state: ChannelState, scenes: Scenes) {
  const layers = [...new Set([...state.program, ...state.preview].map((e) => e.layer))].sort((a, b) => a - b);
  return {
    id: channel.id,
    name: channel.name,
    customActions: [],
    renderCharacteristics: {
      resolution: { width: channel.width, height: channel.height },
      frameRate: channel.fps,
    },
    renderTargetSchema: RENDER_TARGET_SCHEMA,
    status: { status: 'OK' as const, message: `${state.program.length} layer(s) on air` },
    renderTargets: layers.map((layer) => targetInfo(layer, state, scenes)),
  };
}

/** The instance `id` on `layer`: its scene, whether it plays (program), and the values it carries. */
export function findInstance(state: ChannelState, scenes: Scenes, layer: number, id: string) {
  const onProgram = state.program.find((e) => e.layer === layer && instanceId(e) === id);
  const onPreview = state.preview.find((e) => e.layer === layer && instanceId(e) === id);
  const entry = onProgram ?? onPreview;
  const scene = entry && scenes.find((s) => s.id === entry.sceneId);
  if (!entry || !scene) return null;
  return { layer, scene, onProgram: onProgram !== undefined, values: entry.values, step: onProgram?.step ?? 0 };
}

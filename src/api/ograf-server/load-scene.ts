/**
 * The scene a Server API `load` plays: a native scene of the channel (`onair.scene.<sceneId>`, on its own layer), or
 * the channel's scene made from the imported graphic (`gr_…`) on the target's layer, made (POST …/scenes with
 * `graphic` and `layer`) the first time that graphic is loaded there.
 */
import { AppError } from '../../errors.js';
import { createScene, getGraphic } from '../../operations/index.js';
import type { SceneView } from '../../scenes/scene-view.js';
import type { ChannelCalls } from './channel-calls.js';
import { sceneOfGraphicId } from './render-targets.js';

export async function sceneToLoad(api: ChannelCalls, channelId: string, graphicId: string, layer: number) {
  const scenes = await api.scenes(channelId);
  const sceneId = sceneOfGraphicId(graphicId);
  if (sceneId !== null) {
    const scene = scenes.find((s) => s.id === sceneId);
    if (!scene) throw new AppError('not_found', `No graphic ${graphicId} on this renderer.`);
    if (scene.layer !== layer) {
      throw new AppError('not_found', `The graphic ${graphicId} plays on { "layer": ${scene.layer} } only.`);
    }
    return scene;
  }
  const made = scenes.find((s) => s.definition.graphic?.id === graphicId && s.layer === layer);
  if (made) return made;
  const graphic = await api.run(getGraphic, undefined, { graphicId });
  return api.run<unknown, SceneView>(createScene, channelId, { name: graphic.name, graphic: graphicId, layer });
}

/** Which scenes of a workspace are drawn by an imported graphic (deleting the graphic is refused while any is). */
import type { GraphicRecord } from '../store/graphic-store.js';
import type { SceneUse } from './asset-uses.js';
import type { Services } from './services.js';

const PAGE = 100;

export async function scenesUsingGraphic(
  services: Pick<Services, 'store' | 'engine'>,
  graphic: GraphicRecord,
): Promise<SceneUse[]> {
  const uses: SceneUse[] = [];
  for (let after: string | undefined; ;) {
    const channels = await services.store.listChannels(graphic.orgId, { limit: PAGE, after });
    for (const channel of channels) {
      if (!services.engine.has(channel.id)) continue;
      for (const scene of services.engine.scenes(channel.id)) {
        if (scene.definition.graphic?.id === graphic.id) {
          uses.push({ id: scene.id, name: scene.name, channelId: channel.id });
        }
      }
    }
    if (channels.length < PAGE) return uses;
    after = channels.at(-1)!.id;
  }
}

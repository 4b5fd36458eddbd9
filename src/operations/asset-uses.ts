/**
 * Which scenes of a workspace use an asset: a definition that names it (an image element's src, an input's default, a
 * text's or clock's fontFamily), an input the scene declares whose current value names it (an `asset` or `image`
 * input), or the scene's own values on a bus or in a rundown item (an instance's item values). An asset is named by its content hash, so an absolute
 * URL on any host and the bare `/assets/…` path both count.
 */
import type { AssetRecord } from '../store/asset-store.js';
import type { Services } from './services.js';

export interface SceneUse {
  id: string;
  name: string;
  channelId: string;
}

const PAGE = 100;

export async function scenesUsing(
  services: Pick<Services, 'store' | 'engine'>,
  asset: AssetRecord,
): Promise<SceneUse[]> {
  const uses: SceneUse[] = [];
  const names = (value: unknown) => typeof value === 'string' && value.includes(asset.sha256);
  for (let after: string | undefined; ;) {
    const channels = await services.store.listChannels(asset.orgId, { limit: PAGE, after });
    for (const channel of channels) {
      if (!services.engine.has(channel.id)) continue;
      const state = services.engine.state(channel.id);
      const items = services.engine.show(channel.id).rundowns.flatMap((r) => r.items);
      // Scenes whose own instance values (on a bus, or prepared in a rundown item) name the asset.
      const instances = new Set(
        [...state.program, ...state.preview, ...items]
          .filter((e) => Object.values(e.values).some(names))
          .map((e) => e.sceneId),
      );
      for (const scene of services.engine.scenes(channel.id)) {
        const inDefinition = JSON.stringify(scene.definition).includes(asset.sha256);
        const inValues = scene.definition.inputs.some((input) => names(state.inputs[input.name]));
        if (inDefinition || inValues || instances.has(scene.id)) {
          uses.push({ id: scene.id, name: scene.name, channelId: channel.id });
        }
      }
    }
    if (channels.length < PAGE) return uses;
    after = channels.at(-1)!.id;
  }
}

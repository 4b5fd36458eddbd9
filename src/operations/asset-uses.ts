/**
 * Which scenes of a workspace use an asset: a definition that names it (an image element's src, an input's default),
 * or an input the scene declares whose current value names it. An asset is named by its content hash, so an absolute
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
      const values = services.engine.state(channel.id).inputs;
      for (const scene of services.engine.scenes(channel.id)) {
        const inDefinition = JSON.stringify(scene.definition).includes(asset.sha256);
        const inValues = scene.definition.inputs.some((input) => names(values[input.name]));
        if (inDefinition || inValues) uses.push({ id: scene.id, name: scene.name, channelId: channel.id });
      }
    }
    if (channels.length < PAGE) return uses;
    after = channels.at(-1)!.id;
  }
}

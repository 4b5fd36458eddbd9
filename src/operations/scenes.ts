/**
 * Scenes (docs/api.md, "Scenes and templates"; the format is docs/scenes.md): add one from a template or a definition,
 * list, read, replace, delete. Adding and replacing can be dry-run (`?dryRun=1`): every check runs, nothing is saved,
 * and the call counts against the reads bucket (a scene editor validates as the user types).
 */
import { z } from 'zod';
import { newId } from '../ids.js';
import { assertRoom } from '../limits/resource-limits.js';
import { SceneIn, SceneUpdate } from '../scenes/definition-schema.js';
import { assertDeletable } from '../scenes/on-air-checks.js';
import { sceneView, type SceneView } from '../scenes/scene-view.js';
import { DRY_RUN_SCENE_ID, findScene, sceneToCreate, sceneToReplace } from '../scenes/scene-writes.js';
import { assertAssetsHeld, definitionAssets } from './asset-refs.js';
import { graphicDefinition, withGraphicRef } from './graphic-scenes.js';
import type { ChannelOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';

const write = { scope: 'channel', permission: 'channels:write', bucket: 'creates' } as const;
const read = { scope: 'channel', permission: 'channels:read', bucket: 'reads' } as const;
const SceneRef = z.strictObject({ sceneId: ResourceId });

export const createScene: ChannelOperation<z.infer<typeof SceneIn>, SceneView> = {
  ...write,
  dryRunBucket: 'reads',
  name: 'scenes.create',
  input: SceneIn,
  async run({ channel, services, dryRun, caller }, body) {
    const { engine } = services;
    assertRoom(
      engine.scenes(channel.id).length,
      services.limits.scenesPerChannel,
      'A channel has at most {limit} scenes',
      'ONAIR_LIMIT_SCENES_PER_CHANNEL',
    );
    const { graphic, layer, ...rest } = body;
    const source =
      graphic === undefined
        ? rest
        : { ...rest, definition: await graphicDefinition(services, channel.orgId, graphic, layer) };
    const made = sceneToCreate(engine, channel.id, source, dryRun ? DRY_RUN_SCENE_ID : newId('sc'));
    const scene = { ...made, definition: await withGraphicRef(services, channel.orgId, made.definition) };
    await assertAssetsHeld(services, channel.orgId, definitionAssets(scene.definition));
    if (dryRun) return sceneView(scene);
    await services.store.insertScene(scene, caller.actor);
    engine.upsertScene(scene);
    return sceneView(scene);
  },
};

export const listScenes: ChannelOperation<{ limit: number; cursor?: string | undefined }, Page<SceneView>> = {
  ...read,
  name: 'scenes.list',
  input: z.strictObject(PageQuery),
  async run({ channel, services }, { limit, cursor }) {
    const scenes = services.engine.scenes(channel.id).filter((s) => cursor === undefined || s.id > cursor);
    scenes.sort((a, b) => (a.id < b.id ? -1 : 1));
    return page(scenes.slice(0, limit + 1).map(sceneView), limit);
  },
};

export const getScene: ChannelOperation<{ sceneId: string }, SceneView> = {
  ...read,
  name: 'scenes.get',
  input: SceneRef,
  run: async ({ channel, services }, { sceneId }) => sceneView(findScene(services.engine, channel.id, sceneId)),
};

export const replaceScene: ChannelOperation<z.infer<typeof SceneUpdate> & { sceneId: string }, SceneView> = {
  ...write,
  dryRunBucket: 'reads',
  name: 'scenes.replace',
  input: SceneUpdate.extend(SceneRef.shape),
  async run({ channel, services, dryRun, caller }, { sceneId, ...body }) {
    const replaced = sceneToReplace(services.engine, channel.id, sceneId, body);
    const scene = { ...replaced, definition: await withGraphicRef(services, channel.orgId, replaced.definition) };
    await assertAssetsHeld(services, channel.orgId, definitionAssets(scene.definition));
    if (dryRun) return sceneView(scene);
    await services.store.updateScene(scene, caller.actor);
    services.engine.upsertScene(scene);
    return sceneView(scene);
  },
};

/** Refused while the scene is on program or preview (409): the operator takes it off first. */
export const deleteScene: ChannelOperation<{ sceneId: string }, void> = {
  ...write,
  name: 'scenes.delete',
  input: SceneRef,
  async run({ channel, services }, { sceneId }) {
    findScene(services.engine, channel.id, sceneId);
    assertDeletable(services.engine, channel.id, sceneId);
    await services.store.deleteScene(sceneId);
    services.engine.removeScene(channel.id, sceneId);
  },
};

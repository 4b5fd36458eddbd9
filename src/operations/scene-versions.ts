/**
 * Scene versions (docs/scenes.md, "Versions"): every save of a scene is kept (its last 50), with who saved it; listing
 * them, and restoring one. A restore is a save of that version's name and definition through the very path of
 * `PUT …/scenes/{sceneId}` (replaceScene): the same checks of the body, of the channel's inputs and of a scene on a
 * bus, the engine told the same way, and a new version recorded, so restoring can itself be undone.
 */
import { z } from 'zod';
import type { SceneView } from '../scenes/scene-view.js';
import { findScene } from '../scenes/scene-writes.js';
import { AppError } from '../errors.js';
import type { SceneVersionRecord, SceneVersionSummary, Store } from '../store/store.js';
import { validationError } from '../validation.js';
import type { ChannelOperation } from './operation.js';
import { ResourceId } from './paging.js';
import { replaceScene } from './scenes.js';

const SceneRef = z.strictObject({ sceneId: ResourceId });
/** The version as the path names it: anything but a number the scene has names no version (404). */
const VersionRef = SceneRef.extend({ version: ResourceId });

export const listSceneVersions: ChannelOperation<{ sceneId: string }, { data: SceneVersionSummary[] }> = {
  name: 'scenes.versions',
  scope: 'channel',
  permission: 'channels:read',
  bucket: 'reads',
  input: SceneRef,
  async run({ channel, services }, { sceneId }) {
    findScene(services.engine, channel.id, sceneId);
    return { data: await services.store.listSceneVersions(sceneId) };
  },
};

export const restoreSceneVersion: ChannelOperation<{ sceneId: string; version: string }, SceneView> = {
  name: 'scenes.restore_version',
  scope: 'channel',
  permission: 'channels:write',
  bucket: 'creates',
  input: VersionRef,
  async run(ctx, { sceneId, version }) {
    findScene(ctx.services.engine, ctx.channel.id, sceneId);
    const saved = await savedVersion(ctx.services.store, sceneId, version);
    // Checked as a body sent to PUT would be: a limit lowered since the version was saved applies to it too.
    const body = replaceScene.input.safeParse({ sceneId, name: saved.name, definition: saved.definition });
    if (!body.success) throw validationError(body.error);
    return replaceScene.run({ ...ctx, dryRun: false }, body.data);
  },
};

async function savedVersion(
  store: Pick<Store, 'getSceneVersion'>,
  sceneId: string,
  version: string,
): Promise<SceneVersionRecord> {
  const n = /^[1-9][0-9]{0,8}$/.test(version) ? Number(version) : undefined;
  const saved = n === undefined ? undefined : await store.getSceneVersion(sceneId, n);
  if (!saved) throw new AppError('not_found', `Scene ${sceneId} has no version ${version}.`);
  return saved;
}

/**
 * A template or a channel's scene exported as an OGraf graphic (docs/ograf.md, "Export"): what goes into the
 * package. The route zips it with the renderer's module (src/ograf/graphic-package.ts).
 */
import { assetRef, OGRAF_ASSETS_DIR, type SceneDefinition } from '@onair/protocol';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { GraphicExport } from '../ograf/graphic-package.js';
import { findScene } from '../scenes/scene-writes.js';
import { findTemplate } from '../templates/index.js';
import { assetPath } from './assets.js';
import type { ChannelOperation, WorkspaceOperation } from './operation.js';
import { ResourceId } from './paging.js';
import type { Services } from './services.js';

const read = { permission: 'channels:read', bucket: 'reads' } as const;
/** Templates are drawn for a 1920×1080 channel. */
const TEMPLATE_STAGE = { width: 1920, height: 1080 };

export const exportTemplate: WorkspaceOperation<{ templateId: string }, GraphicExport> = {
  ...read,
  scope: 'workspace',
  name: 'templates.exportOgraf',
  input: z.strictObject({ templateId: ResourceId }),
  async run(_ctx, { templateId }) {
    const template = findTemplate(templateId);
    if (!template) throw new AppError('not_found', `No template ${templateId}.`);
    return {
      scene: {
        graphicId: `onair.template.${template.id}`,
        version: '1',
        name: template.name,
        description: `The onair template ${template.name}.`,
        definition: template.definition,
        ...TEMPLATE_STAGE,
      },
      view: { id: template.id, name: template.name, definition: template.definition },
      files: [],
      picture: `template-${template.id}.png`,
      fileStem: template.id,
    };
  },
};

export const exportScene: ChannelOperation<{ sceneId: string }, GraphicExport> = {
  ...read,
  scope: 'channel',
  name: 'scenes.exportOgraf',
  input: z.strictObject({ sceneId: ResourceId }),
  async run({ channel, services }, { sceneId }) {
    const scene = findScene(services.engine, channel.id, sceneId);
    if (scene.definition.graphic) {
      throw new AppError('conflict', 'This scene is an imported OGraf graphic: download the graphic itself instead.');
    }
    return {
      scene: {
        graphicId: `onair.scene.${scene.id}`,
        // Alphabetically sortable, as the manifest's version should be.
        version: scene.updatedAt,
        name: scene.name,
        description: `The scene ${scene.name} of the onair channel ${channel.name}.`,
        definition: scene.definition,
        width: channel.width,
        height: channel.height,
      },
      view: { id: scene.id, name: scene.name, definition: scene.definition },
      files: await libraryFiles(services, channel.orgId, scene.definition),
      picture: null,
      fileStem: `scene-${scene.id}`,
    };
  },
};

/** The library files the definition names anywhere (images, fonts, defaults), read from the workspace's store. */
async function libraryFiles(services: Pick<Services, 'store'>, orgId: string, definition: SceneDefinition) {
  const paths = new Set<string>();
  JSON.stringify(definition, (_key, value: unknown) => {
    const ref = typeof value === 'string' ? assetRef(value) : null;
    if (ref) paths.add(ref.path);
    return value;
  });
  const files: GraphicExport['files'] = [];
  for (const p of paths) {
    const ref = assetRef(p);
    const held = ref ? await services.store.assets.findByHash(ref.sha256) : [];
    const asset = held.find((a) => a.orgId === orgId && assetPath(a) === p);
    const data = asset ? await services.store.assets.readData(asset.id) : undefined;
    if (data) files.push({ file: `${OGRAF_ASSETS_DIR}${p.slice('/assets'.length)}`, data });
  }
  return files;
}

/**
 * What a scene write checks before anything is saved, shared by the real call and its dry run (`?dryRun=1`,
 * docs/api.md, "Scenes and templates"): the body's shape has been checked by the route's schema (with the
 * definition checks); here the template is resolved, the definition normalised, the inputs checked against the
 * channel's (`engine.checkScene`) and, for a replacement, the layer of a scene on a bus kept. The result is the
 * scene exactly as it would be stored; the caller saves it, or, dry, only answers it.
 */
import type { z } from 'zod';
import type { Engine, SceneRecord } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { SceneDefinition } from '@onair/protocol';
import { findTemplate, TEMPLATES } from '../templates/index.js';
import { assertLayerKept } from './on-air-checks.js';
import { normaliseDefinition, type SceneIn, type SceneUpdate } from './definition-schema.js';

/** The id a dry-run create answers with: never a real scene's (those are `sc_` and 32 hex digits). */
export const DRY_RUN_SCENE_ID = 'sc_dryrun';

/** The scene `POST …/scenes` would store, every check passed; throws the problem otherwise. */
export function sceneToCreate(
  engine: Engine,
  channelId: string,
  body: z.infer<typeof SceneIn>,
  id: string,
  now = new Date().toISOString(),
): SceneRecord {
  const scene: SceneRecord = {
    id,
    channelId,
    name: body.name,
    definition: resolveDefinition(body),
    createdAt: now,
    updatedAt: now,
  };
  engine.checkScene(scene);
  return scene;
}

/** The scene `PUT …/scenes/{sceneId}` would store, every check passed; throws the problem otherwise. */
export function sceneToReplace(
  engine: Engine,
  channelId: string,
  sceneId: string,
  body: z.infer<typeof SceneUpdate>,
  now = new Date().toISOString(),
): SceneRecord {
  const before = findScene(engine, channelId, sceneId);
  const scene: SceneRecord = {
    ...before,
    name: body.name ?? before.name,
    definition: normaliseDefinition(body.definition),
    updatedAt: now,
  };
  engine.checkScene(scene);
  assertLayerKept(engine, before, scene);
  return scene;
}

export function findScene(engine: Engine, channelId: string, sceneId: string): SceneRecord {
  const scene = engine.scenes(channelId).find((s) => s.id === sceneId);
  if (!scene) throw new AppError('not_found', `Scene ${sceneId} is not in channel ${channelId}.`);
  return scene;
}

function resolveDefinition(body: z.infer<typeof SceneIn>): SceneDefinition {
  if (body.definition) return normaliseDefinition(body.definition);
  const template = findTemplate(body.template ?? '');
  if (!template) {
    const known = TEMPLATES.map((t) => t.id).join(', ');
    throw new AppError('invalid_request', `Unknown template "${body.template}". Known templates: ${known}.`, {
      errors: [{ path: 'template', message: `unknown template; one of ${known}` }],
    });
  }
  return structuredClone(template.definition);
}

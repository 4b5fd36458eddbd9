/**
 * Scenes drawn by imported OGraf graphics (docs/ograf.md, "A scene from a graphic"): the definition a graphic makes
 * (its GDD's inputs, a trigger per custom action, no elements) and the graphic reference every stored definition
 * carries, read from the graphic itself whatever a client sent: its manifest id, version, module, step count, and the
 * path its files are served at.
 */
import type { SceneDefinition } from '@onair/protocol';
import { AppError } from '../errors.js';
import { customActionTriggers, graphicData } from '../graphics/gdd-inputs.js';
import type { Manifest } from '../graphics/manifest-schema.js';
import { SceneDefinitionIn, type SceneDefinitionInput } from '../scenes/definition-schema.js';
import type { GraphicRecord } from '../store/graphic-store.js';
import { validationError } from '../validation.js';
import { graphicFilesPath } from './graphics.js';
import type { Services } from './services.js';

/** The definition a scene made from `graphicId` starts with; 400 when the workspace holds no such graphic. */
export async function graphicDefinition(
  services: Pick<Services, 'store'>,
  orgId: string,
  graphicId: string,
  layer = 0,
): Promise<SceneDefinitionInput> {
  const graphic = await workspaceGraphic(services, orgId, graphicId, 'graphic');
  const manifest = graphic.manifest as Manifest;
  const { inputs, data } = graphicData(manifest.schema);
  const triggers = customActionTriggers(manifest.customActions);
  const parsed = SceneDefinitionIn.safeParse({
    layer,
    inputs,
    elements: [],
    triggers,
    graphic: { id: graphic.id, data },
  });
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** The definition with its graphic reference read again from the graphic it names (the workspace's, or 400). */
export async function withGraphicRef(
  services: Pick<Services, 'store'>,
  orgId: string,
  definition: SceneDefinition,
): Promise<SceneDefinition> {
  const ref = definition.graphic;
  if (ref === undefined) return definition;
  const g = await workspaceGraphic(services, orgId, ref.id, 'definition.graphic.id');
  const { graphicId, version, main, stepCount } = g;
  return {
    ...definition,
    graphic: { id: g.id, graphicId, version, main, stepCount, data: ref.data, base: graphicFilesPath(g) },
  };
}

async function workspaceGraphic(
  services: Pick<Services, 'store'>,
  orgId: string,
  id: string,
  path: string,
): Promise<GraphicRecord> {
  const graphic = await services.store.graphics.getGraphic(id);
  if (graphic && graphic.orgId === orgId) return graphic;
  throw new AppError('invalid_request', `${path}: no imported graphic ${id} in this workspace`, {
    errors: [{ path, message: `no imported graphic ${id} in this workspace (GET /v1/graphics lists them)` }],
  });
}

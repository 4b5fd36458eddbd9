/**
 * The manifest (`*.ograf.json`, OGraf v1) of a scene exported as a graphic: the scene's inputs as its data schema,
 * its triggers as custom actions, one step, real-time only. Typed by the `ograf` package's manifest type, so a field
 * the v1 schema does not know fails to compile.
 */
import { OGRAF_MODULE_FILE, type SceneDefinition } from '@onair/protocol';
import type { GraphicsManifest } from 'ograf';
import { gddSchema } from './gdd-schema.js';

export const OGRAF_MANIFEST_SCHEMA = 'https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json';

export interface ExportedScene {
  /** The manifest's id: `onair.template.<id>` or `onair.scene.<id>`. */
  graphicId: string;
  version: string;
  name: string;
  description: string;
  definition: SceneDefinition;
  /** The stage it was designed on. */
  width: number;
  height: number;
}

export function exportManifest(scene: ExportedScene, thumbnail: { file: string; width: number; height: number }) {
  const manifest: GraphicsManifest = {
    $schema: OGRAF_MANIFEST_SCHEMA,
    id: scene.graphicId,
    version: scene.version,
    name: scene.name,
    description: scene.description,
    author: { name: 'onair' },
    main: OGRAF_MODULE_FILE,
    supportsRealTime: true,
    supportsNonRealTime: false,
    stepCount: 1,
    schema: gddSchema(scene.definition.inputs),
    customActions: scene.definition.triggers.map((t) => ({
      id: t.name,
      name: t.name,
      description: t.on === undefined ? 'Plays the animation once.' : `Plays by itself when ${t.on} changes.`,
    })),
    // The module scales its stage to any size; this is the size it was drawn for.
    renderRequirements: [{ resolution: { width: { ideal: scene.width }, height: { ideal: scene.height } } }],
    thumbnails: [{ file: thumbnail.file, resolution: { width: thumbnail.width, height: thumbnail.height } }],
  };
  return manifest;
}

/** Scene versions as both stores keep them (one row per save: docs/scenes.md, "Versions"), to domain records. */
import type { Actor, SceneDefinition } from '@onair/protocol';
import type { SceneVersionRecord, SceneVersionSummary } from './store.js';

export interface SceneVersionRow {
  scene_id: string;
  version: number;
  name: string;
  /** JSON: SceneDefinition */
  definition: string;
  saved_at: string;
  /** JSON: Actor */
  saved_by: string;
}

export function versionSummaryFromRow(r: Omit<SceneVersionRow, 'scene_id' | 'definition'>): SceneVersionSummary {
  return { version: r.version, name: r.name, savedAt: r.saved_at, savedBy: JSON.parse(r.saved_by) as Actor };
}

export function sceneVersionFromRow(r: SceneVersionRow): SceneVersionRecord {
  return {
    sceneId: r.scene_id,
    ...versionSummaryFromRow(r),
    definition: JSON.parse(r.definition) as SceneDefinition,
  };
}

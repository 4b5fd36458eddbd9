/**
 * Row shapes of the graphics and graphic_files tables, the same in both stores (sqlite/sqlite-graphics.ts,
 * postgres/postgres-graphics.ts), and their mapping to records.
 */
import type { GraphicFile, GraphicRecord } from './graphic-store.js';

export const GRAPHIC_COLUMNS =
  'id, org_id, graphic_id, version, name, main, step_count, manifest, sha256, capability, files, bytes, created_at';
export const FILE_COLUMNS = 'graphic_id, path, type, sha256, bytes';

export interface GraphicRow {
  id: string;
  org_id: string;
  graphic_id: string;
  version: string;
  name: string;
  main: string;
  step_count: number;
  manifest: string;
  sha256: string;
  capability: string;
  files: number;
  /** A string from Postgres bigint. */
  bytes: number | string;
  created_at: string;
}

export interface FileRow {
  path: string;
  type: string;
  sha256: string;
  bytes: number | string;
}

export function graphicFromRow(r: GraphicRow): GraphicRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    graphicId: r.graphic_id,
    version: r.version,
    name: r.name,
    main: r.main,
    stepCount: r.step_count,
    manifest: JSON.parse(r.manifest) as Record<string, unknown>,
    sha256: r.sha256,
    capability: r.capability,
    files: r.files,
    bytes: Number(r.bytes),
    createdAt: r.created_at,
  };
}

export function graphicParams(g: GraphicRecord): unknown[] {
  return [
    g.id,
    g.orgId,
    g.graphicId,
    g.version,
    g.name,
    g.main,
    g.stepCount,
    JSON.stringify(g.manifest),
    g.sha256,
    g.capability,
    g.files,
    g.bytes,
    g.createdAt,
  ];
}

export function fileFromRow(r: FileRow): GraphicFile {
  return { path: r.path, type: r.type, sha256: r.sha256, bytes: Number(r.bytes) };
}

/**
 * A workspace's imported OGraf graphics in storage (docs/ograf.md): each graphic's manifest and every file of its
 * package, bytes included, kept in the database itself like the asset library, so that a backup carries them and
 * every node sharing the store serves them.
 *
 * Guarantees every implementation keeps (graphic-store.contract.ts runs against each), besides Store's (durable when
 * the promise resolves):
 * - One graphic per (workspace, manifest id, version): inserting one the workspace holds already writes nothing and
 *   answers the one held, even when several nodes insert it at once.
 * - A graphic and its files are written together (all or nothing) and never change; deleting one deletes its files.
 */

export interface GraphicRecord {
  /** `gr_…` */
  id: string;
  orgId: string;
  /** The manifest's `id` and `version` (`''` when the manifest has none). */
  graphicId: string;
  version: string;
  name: string;
  /** The module file, relative to the graphic's files. */
  main: string;
  /** The manifest's stepCount (1 when it has none). */
  stepCount: number;
  /** The manifest as uploaded (validated against the OGraf v1 schema). */
  manifest: Record<string, unknown>;
  /** SHA-256 hex over the files (their paths and hashes): the same package gives the same hash. */
  sha256: string;
  /**
   * The unguessable part of the path its files are served at (`/ograf/files/{capability}/…`, docs/ograf.md): random
   * at import, unique, and the only thing that path needs.
   */
  capability: string;
  files: number;
  bytes: number;
  createdAt: string;
}

export interface GraphicFile {
  /** Relative to the graphic's manifest, `/`-separated. */
  path: string;
  /** The Content-Type it is served with. */
  type: string;
  sha256: string;
  bytes: number;
}

export interface GraphicStore {
  /**
   * Stores the graphic with its files, or answers the workspace's graphic with the same id and version (then nothing
   * is written and `created` is false).
   */
  insertGraphic(
    graphic: GraphicRecord,
    files: readonly (GraphicFile & { data: Uint8Array })[],
  ): Promise<{ graphic: GraphicRecord; created: boolean }>;
  getGraphic(id: string): Promise<GraphicRecord | undefined>;
  byCapability(capability: string): Promise<GraphicRecord | undefined>;
  /** How many graphics a workspace holds, and the bytes of all their files (its quota: docs/ograf.md). */
  usage(orgId: string): Promise<{ count: number; bytes: number }>;
  /** A workspace's graphics in creation order, after the `after` id, at most `limit`. */
  listGraphics(orgId: string, page: { limit: number; after?: string | undefined }): Promise<GraphicRecord[]>;
  /** A graphic's files (without their bytes), by path. */
  listFiles(id: string): Promise<GraphicFile[]>;
  /** One file with its bytes, or undefined when the graphic or the file is not there. */
  readFile(id: string, path: string): Promise<(GraphicFile & { data: Uint8Array }) | undefined>;
  deleteGraphic(id: string): Promise<void>;
}

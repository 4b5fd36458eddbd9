/**
 * A workspace's asset library in storage (docs/assets.md): images and fonts, each record with its bytes, kept in the
 * database itself so that a backup carries them and every node sharing the store serves them.
 *
 * Guarantees every implementation keeps (asset-store.contract.ts runs against each), besides Store's (durable when
 * the promise resolves):
 * - Content-addressed per workspace: at most one asset per (workspace, sha256). Inserting bytes the workspace holds
 *   already changes nothing and answers the asset that holds them, even when several nodes insert them at once.
 * - Immutable: an asset's bytes and record never change; it can only be deleted.
 */

export type AssetKind = 'image' | 'font';

export interface AssetRecord {
  id: string;
  orgId: string;
  /** SHA-256 hex of the bytes as stored (an SVG's: after sanitising). */
  sha256: string;
  /** The MIME type sniffed from the bytes. */
  type: string;
  kind: AssetKind;
  /** The uploaded file's name, for display only. */
  name: string;
  /** Size in bytes. */
  bytes: number;
  width: number | null;
  height: number | null;
  createdAt: string;
}

export interface AssetUsage {
  count: number;
  bytes: number;
}

export interface AssetStore {
  /**
   * Stores the asset with its bytes, or answers the workspace's asset with the same sha256 (then nothing is written
   * and `created` is false).
   */
  insertAsset(asset: AssetRecord, data: Uint8Array): Promise<{ asset: AssetRecord; created: boolean }>;
  getAsset(id: string): Promise<AssetRecord | undefined>;
  /** The workspaces' assets with these bytes (the same file may be in several workspaces). */
  findByHash(sha256: string): Promise<AssetRecord[]>;
  /** The bytes of an asset, or undefined when it is gone. */
  readData(id: string): Promise<Uint8Array | undefined>;
  /** A workspace's assets in creation order, after the `after` id, at most `limit`. */
  listAssets(orgId: string, page: { limit: number; after?: string | undefined }): Promise<AssetRecord[]>;
  /** How many assets a workspace holds and their total size. */
  usage(orgId: string): Promise<AssetUsage>;
  deleteAsset(id: string): Promise<void>;
}

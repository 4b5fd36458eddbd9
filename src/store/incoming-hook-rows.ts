/**
 * Row shapes of the incoming-hook tables, the same in both stores (sqlite/sqlite-incoming-hooks.ts,
 * postgres/postgres-incoming-hooks.ts), and their mapping to the IncomingHookStore's records.
 */
import type { HookDeliveryRecord, IncomingHookRecord } from './incoming-hook-store.js';

export interface HookRow {
  id: string;
  org_id: string;
  channel_id: string;
  name: string;
  token_hash: string;
  mapping: string;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  require_signature: number | boolean;
  sealed_secret: string | null;
  created_at: string;
  updated_at: string;
}

export interface HookDeliveryRow {
  at: string;
  status: number;
  applied: string;
  ignored: string;
  error: string | null;
  payload: string;
  /** 0 or 1 in SQLite, a boolean in Postgres. */
  dry_run: number | boolean;
}

export const hook = (r: HookRow): IncomingHookRecord => ({
  id: r.id,
  orgId: r.org_id,
  channelId: r.channel_id,
  name: r.name,
  tokenHash: r.token_hash,
  mapping: JSON.parse(r.mapping) as Record<string, string>,
  requireSignature: Boolean(r.require_signature),
  sealedSecret: r.sealed_secret,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const hookDelivery = (r: HookDeliveryRow): HookDeliveryRecord => ({
  at: r.at,
  status: r.status,
  applied: JSON.parse(r.applied) as Record<string, unknown>,
  ignored: JSON.parse(r.ignored) as string[],
  error: r.error,
  payload: r.payload,
  dryRun: Boolean(r.dry_run),
});

/** Thrown inside a claim's transaction to roll it back: another post holds `key`. */
export class ReplayKeyHeld extends Error {
  constructor(readonly key: string) {
    super(`replay key held: ${key}`);
  }
}

/**
 * The row shape of the idempotency_keys table, the same in both stores (sqlite/sqlite-idempotency.ts,
 * postgres/postgres-idempotency.ts), and its mapping to the IdempotencyStore's record.
 */
import type { IdempotencyRecord } from './idempotency-store.js';

export interface IdempotencyRow {
  fingerprint: string;
  owner: string;
  created_at: string;
  status: number | null;
  headers: string | null;
  body: string | null;
}

export const idempotencyRecord = (r: IdempotencyRow): IdempotencyRecord => ({
  fingerprint: r.fingerprint,
  owner: r.owner,
  createdAt: r.created_at,
  response:
    r.status === null
      ? null
      : { status: r.status, headers: JSON.parse(r.headers ?? '{}') as Record<string, string>, body: r.body ?? '' },
});

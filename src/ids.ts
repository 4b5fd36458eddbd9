/**
 * Identifiers and secrets. Ids are a type prefix plus a UUIDv7 in hex: opaque to clients, and sorting
 * them as strings sorts by creation time (docs/api.md, "Conventions"). Secrets are base62 from the CSPRNG.
 */
import { hash, randomBytes } from 'node:crypto';
import { uuid7Hex } from './uuid7.js';

export type IdPrefix =
  | 'org'
  | 'ch'
  | 'sc'
  | 'evt'
  | 'wh'
  | 'key'
  | 'hook'
  | 'usr'
  | 'inv'
  | 'rd'
  | 'it'
  | 'sch'
  | 'ast'
  | 'src'
  | 'asr'
  | 'out'
  | 'gr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${uuid7Hex()}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters, unbiased (bytes ≥ 248 are redrawn). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** An API key secret: `onair_sk_` + 40 base62 characters (≈ 238 bits). */
export function newApiKeySecret(): string {
  return `onair_sk_${randomBase62(40)}`;
}

/** A channel output token for renderer URLs (≈ 190 bits). */
export function newOutputToken(): string {
  return randomBase62(32);
}

/** One-shot crypto.hash: 2.5× cheaper than createHash().update().digest(), and it runs on every request. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

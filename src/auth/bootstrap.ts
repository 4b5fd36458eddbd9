/**
 * First-run credentials: ONAIR_BOOTSTRAP_KEY becomes a `*` key of the first workspace when the database
 * has no keys (API.md §2). Without it, a fresh database gets a generated `*` key whose secret is returned
 * once, for the start-up banner, and stored only as a hash.
 */
import { newApiKeySecret, newId, sha256Hex } from '../ids.js';
import type { OrgRecord, Store } from '../store/store.js';

export interface BootstrapResult {
  org: OrgRecord;
  /** Set only when a key was created now from a generated secret: show it once. */
  generatedSecret: string | null;
  /** True when ONAIR_BOOTSTRAP_KEY was installed now. */
  installedBootstrapKey: boolean;
}

export async function bootstrapCredentials(store: Store, bootstrapKey: string | undefined): Promise<BootstrapResult> {
  const org = await store.defaultOrg();
  if ((await store.countKeys()) > 0) return { org, generatedSecret: null, installedBootstrapKey: false };
  const secret = bootstrapKey ?? newApiKeySecret();
  await store.insertKey({
    id: newId('key'),
    orgId: org.id,
    name: bootstrapKey ? 'bootstrap (ONAIR_BOOTSTRAP_KEY)' : 'first-run key',
    hash: sha256Hex(secret),
    prefix: secret.slice(0, 13),
    permissions: ['*'],
    channelIds: null,
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  });
  return { org, generatedSecret: bootstrapKey ? null : secret, installedBootstrapKey: Boolean(bootstrapKey) };
}

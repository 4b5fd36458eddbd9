/**
 * First run (docs/api.md, "Authentication"): the first workspace exists from the start; while it has no owner, every
 * start issues a one-time setup token for the owner account (printed as a URL, stored only as a hash).
 * ONAIR_BOOTSTRAP_KEY, when set and the database has no keys, becomes a `*` key of that workspace.
 */
import { sha256Hex } from '../ids.js';
import type { OrgRecord } from '../store/account-store.js';
import type { Store } from '../store/store.js';
import { issueSetupTokenIfNeeded } from './accounts.js';
import { mintKey } from './mint-key.js';

export interface BootstrapResult {
  org: OrgRecord;
  /** The one-time setup token for the owner account, while the workspace has none. */
  setupToken: string | null;
  /** True when ONAIR_BOOTSTRAP_KEY was installed now. */
  installedBootstrapKey: boolean;
}

export async function bootstrapCredentials(store: Store, bootstrapKey: string | undefined): Promise<BootstrapResult> {
  const org = await store.defaultOrg();
  let installedBootstrapKey = false;
  if (bootstrapKey && (await store.countKeys()) === 0) {
    const { record } = mintKey(org.id, { name: 'bootstrap (ONAIR_BOOTSTRAP_KEY)', permissions: ['*'] });
    const hash = sha256Hex(bootstrapKey);
    try {
      await store.insertKey({ ...record, hash, prefix: bootstrapKey.slice(0, 13) });
      installedBootstrapKey = true;
    } catch (err) {
      // Several nodes starting at once on one database: another one installed the same key first.
      if (!(await store.findKeyByHash(hash))) throw err;
    }
  }
  const setupToken = await issueSetupTokenIfNeeded(store, org.id);
  return { org, setupToken, installedBootstrapKey };
}

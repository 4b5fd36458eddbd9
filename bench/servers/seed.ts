/**
 * Benchmark setup without the API: writes channels, each with a scoreboard scene, into a fresh data dir
 * through the store, before the server starts and loads them. (The API's create limit, 60 a minute,
 * would make a 10,000-channel setup take hours; and nothing here is measured.)
 */
import { bootstrapCredentials } from '../../src/auth/bootstrap.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { mintKey } from '../../src/auth/mint-key.js';
import type { ChannelRecord, SceneRecord } from '../../src/engine/index.js';
import { newId, newOutputToken, sha256Hex } from '../../src/ids.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SYSTEM_ACTOR } from '@onair/protocol';
import { scoreboard } from '../../src/templates/scoreboard.js';

export const BENCH_KEY = 'onair_sk_Bench0123456789abcdefghijklmnopqrstuv';

export interface SeededChannel {
  id: string;
  token: string;
  sceneId: string;
}

/** A dashboard account, owner of the bench workspace (for benchmarks that sign in). */
export interface SeededUser {
  email: string;
  password: string;
}

export async function seedChannels(
  dataDir: string,
  key: string,
  count: number,
  user?: SeededUser,
): Promise<SeededChannel[]> {
  const store = new SqliteStore({ dataDir, synchronous: 'normal' });
  try {
    const { org } = await bootstrapCredentials(store, key);
    const out: SeededChannel[] = [];
    for (let i = 0; i < count; i++) out.push(await seedOne(store, org.id, i));
    if (user) await seedUser(store, org.id, user);
    return out;
  } finally {
    await store.close();
  }
}

async function seedUser(store: SqliteStore, orgId: string, user: SeededUser): Promise<void> {
  const now = new Date().toISOString();
  const id = newId('usr');
  await store.accounts.insertUser({
    id,
    email: user.email,
    passwordHash: await hashPassword(user.password),
    createdAt: now,
    serverAdmin: false,
    createsWorkspaces: false,
  });
  await store.accounts.insertMembership({ userId: id, orgId, role: 'owner', createdAt: now });
}

/** Another workspace, with `key` as a `*` key of its own and `count` channels (bench/webhooks-fairness.ts). */
export async function seedWorkspace(
  dataDir: string,
  name: string,
  key: string,
  count: number,
): Promise<SeededChannel[]> {
  const store = new SqliteStore({ dataDir, synchronous: 'normal' });
  try {
    const org = { id: newId('org'), name, createdAt: new Date().toISOString() };
    await store.accounts.insertOrg(org);
    const { record } = mintKey(org.id, { name: `${name} (bench)`, permissions: ['*'] });
    await store.insertKey({ ...record, hash: sha256Hex(key), prefix: key.slice(0, 13) });
    const out: SeededChannel[] = [];
    for (let i = 0; i < count; i++) out.push(await seedOne(store, org.id, i));
    return out;
  } finally {
    await store.close();
  }
}

async function seedOne(store: SqliteStore, orgId: string, i: number): Promise<SeededChannel> {
  const now = new Date().toISOString();
  const channel: ChannelRecord = {
    id: newId('ch'),
    orgId,
    name: `bench ${i}`,
    fps: 60,
    width: 1920,
    height: 1080,
    outputToken: newOutputToken(),
    createdAt: now,
    updatedAt: now,
  };
  const scene: SceneRecord = {
    id: newId('sc'),
    channelId: channel.id,
    name: 'score',
    definition: scoreboard.definition,
    createdAt: now,
    updatedAt: now,
  };
  await store.insertChannel(channel);
  await store.insertScene(scene, SYSTEM_ACTOR);
  return { id: channel.id, token: channel.outputToken, sceneId: scene.id };
}

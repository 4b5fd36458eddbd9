/**
 * Several onair nodes as real processes on one Postgres and one Redis (docs/architecture/several-nodes.md): each test
 * file gets a Postgres schema and a Redis prefix of its own, so files running at once do not meet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { issueSetupTokenIfNeeded } from '../../src/auth/accounts.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { freshSchema, serviceUrl, uniqueName, type TestSchema } from './services.js';
import { spawnServer, type ChildServer } from './spawn-server.js';

export const CLUSTER_KEY = 'onair_sk_clustertestkey000000000000000000';
const SECRET_KEY = 'cluster-test-secret-key-0123456789abcdef';

export interface ClusterNode extends ChildServer {
  id: string;
}

export interface TestCluster {
  nodes: ClusterNode[];
  schema: TestSchema;
  /** The node holding the channel's lease now (a query on the lease table), or null. */
  ownerOf(channelId: string): Promise<string | null>;
  node(id: string): ClusterNode;
  /** Starts one more node (or a node again after it was killed) with the cluster's settings. */
  start(id: string): Promise<ClusterNode>;
  stop(): Promise<void>;
}

export async function startCluster(ids: string[], env: Record<string, string> = {}): Promise<TestCluster> {
  const schema = await freshSchema();
  const prefix = `${uniqueName('onair_test')}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-cluster-'));
  const nodes: ClusterNode[] = [];
  const admin = new pg.Client({ connectionString: schema.url });
  await admin.connect();
  const start = async (id: string) => {
    const server = await spawnServer({
      ONAIR_DATABASE_URL: schema.url,
      ONAIR_REDIS_URL: serviceUrl('redis'),
      ONAIR_REDIS_PREFIX: prefix,
      ONAIR_NODE_ID: id,
      ONAIR_SECRET_KEY: SECRET_KEY,
      ONAIR_BOOTSTRAP_KEY: CLUSTER_KEY,
      ONAIR_HOST: '127.0.0.1',
      ONAIR_PORT: '0',
      ONAIR_DATA_DIR: path.join(dataDir, id),
      ONAIR_LOG_LEVEL: 'info',
      ...env,
    });
    const node = { ...server, id };
    const at = nodes.findIndex((n) => n.id === id);
    if (at >= 0) nodes[at] = node;
    else nodes.push(node);
    return node;
  };
  // One after the other: the first migrates the schema, and each joins the ones before.
  for (const id of ids) await start(id);
  return {
    nodes,
    schema,
    node: (id) => nodes.find((n) => n.id === id)!,
    start,
    async ownerOf(channelId) {
      const { rows } = await admin.query<{ node_id: string }>(
        'SELECT node_id FROM channel_leases WHERE channel_id = $1 AND node_id IS NOT NULL AND expires_at > now()',
        [channelId],
      );
      return rows[0]?.node_id ?? null;
    },
    async stop() {
      await Promise.all(nodes.map((n) => n.kill('SIGKILL')));
      await admin.end();
      await schema.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A one-time setup token for the cluster's first workspace, as a node issues one at start while no owner exists
 * (src/auth/accounts.ts): the nodes print theirs on stderr, which spawnServer keeps to itself, so the test issues
 * one of its own in the shared database (voiding the nodes' ones) and completes setup with it on any node.
 */
export async function issueSetupToken(cluster: TestCluster): Promise<string> {
  const store = await PostgresStore.open({ url: cluster.schema.url });
  try {
    const token = await issueSetupTokenIfNeeded(store, (await store.defaultOrg()).id);
    if (!token) throw new Error('the cluster has an owner already: no setup token to issue');
    return token;
  } finally {
    await store.close();
  }
}

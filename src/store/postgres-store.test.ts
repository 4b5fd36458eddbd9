import net from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine/index.js';
import { freshSchema, serviceGate, type TestSchema } from '../../test/helpers/services.js';
import { MIGRATIONS } from './postgres/migrations.js';
import { expectRightsGiven, RIGHTS_MIGRATION, ROWS_BEFORE_RIGHTS } from './rights-migration.fixtures.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { MIGRATIONS as SQLITE_MIGRATIONS } from './sqlite/migrations.js';
import { storeContracts, type StoreHarness } from './store.contract.js';
import { change, channelRecord, event } from './store.fixtures.js';

const gate = serviceGate('postgres');

/** Each harness gets a private empty schema, made when its first store opens and dropped by dispose. */
function postgresHarness(): StoreHarness {
  let schema: Promise<TestSchema> | undefined;
  return {
    open: async () => PostgresStore.open({ url: (await (schema ??= freshSchema())).url }),
    dispose: async () => {
      if (schema) await (await schema).drop();
    },
  };
}

describe.skipIf(gate.skip)(`PostgresStore${gate.label}`, () => {
  storeContracts('PostgresStore', postgresHarness);

  describe('beyond the contract', () => {
    const schemas: TestSchema[] = [];
    const stores: PostgresStore[] = [];
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
      for (const s of schemas.splice(0)) await s.drop();
    });

    async function schema(): Promise<TestSchema> {
      const s = await freshSchema();
      schemas.push(s);
      return s;
    }

    async function open(url: string): Promise<PostgresStore> {
      const store = await PostgresStore.open({ url });
      stores.push(store);
      return store;
    }

    async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<R>(sql)).rows;
      } finally {
        await client.end();
      }
    }

    it('numbers its migrations as SQLite does, so a version means the same in both stores', () => {
      expect(MIGRATIONS.map((m) => [m.version, m.name])).toEqual(SQLITE_MIGRATIONS.map((m) => [m.version, m.name]));
    });

    it('makes the earliest owner of the first workspace the server admin when it adds workspace rights', async () => {
      const { url } = await schema();
      const rightsVersion = MIGRATIONS.find((x) => x.name === RIGHTS_MIGRATION)!.version;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text, applied_at text)');
        for (const m of MIGRATIONS.filter((x) => x.version < rightsVersion)) {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, 'then']);
        }
        await client.query(ROWS_BEFORE_RIGHTS);
      } finally {
        await client.end();
      }
      await expectRightsGiven((await open(url)).accounts);
    });

    it('migrates once: two stores opening an empty schema at once, then a reopen, apply each migration once', async () => {
      const { url } = await schema();
      const [a, b] = await Promise.all([open(url), open(url)]);
      const applied = await query<{ version: number; applied_at: string }>(
        url,
        'SELECT version, applied_at FROM schema_migrations ORDER BY version',
      );
      expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await a.close();
      await b.close();
      await open(url);
      expect(await query(url, 'SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(applied);
    });

    it('two stores on one database see each other’s writes, and create one default workspace between them', async () => {
      const { url } = await schema();
      const a = await open(url);
      const b = await open(url);
      const [orgA, orgB] = await Promise.all([a.defaultOrg(), b.defaultOrg()]);
      expect(orgB).toEqual(orgA);
      const c = channelRecord(orgA.id, 'shared');
      await a.insertChannel(c);
      expect(await b.listChannels(orgA.id, { limit: 10 })).toEqual([c]);
      const e = event(c, 'channel.played');
      await b.commitTick(7, [change(c, { set: { score: 4 }, frame: 7, events: [e] })]);
      const [loaded] = await a.loadChannels();
      expect(loaded!.live).toMatchObject({ values: new Map([['score', 4]]), frame: 7 });
      expect((await a.listEvents(orgA.id, { limit: 10 })).events).toEqual([e]);
      expect((await a.webhooks.undispatched(10)).flatMap((batch) => batch.events)).toEqual([e]);
    });

    it('makes event batches visible in seq order: concurrent ticks on two stores are each fanned out once', async () => {
      const { url } = await schema();
      const nodes = [await open(url), await open(url)];
      const orgId = (await nodes[0]!.defaultOrg()).id;
      const chans = [channelRecord(orgId, 'a'), channelRecord(orgId, 'b')];
      for (const c of chans) await nodes[0]!.insertChannel(c);
      const committed: EngineEvent[] = [];
      const seen: string[] = [];
      let done = false;
      // The dispatcher's loop: read after the cursor, move it past what was read.
      const dispatch = async () => {
        for (let last = false; !last;) {
          last = done;
          const batches = await nodes[1]!.webhooks.undispatched(100);
          seen.push(...batches.flatMap((b) => b.events.map((e) => e.id)));
          if (batches.length > 0) await nodes[1]!.webhooks.fanOut(batches.at(-1)!.seq, [], []);
        }
      };
      const tick = async (i: number) => {
        const c = chans[i % 2]!;
        const e = event(c, 'channel.bind_updated');
        committed.push(e);
        await nodes[i % 2]!.commitTick(i, [change(c, { set: { score: i }, frame: i, events: [e] })]);
      };
      const dispatcher = dispatch();
      await Promise.all(Array.from({ length: 60 }, (_, i) => tick(i)));
      done = true;
      await dispatcher;
      expect(seen.sort()).toEqual(committed.map((e) => e.id).sort());
    });

    it('refuses writes with 503 unavailable while Postgres is unreachable, and recovers when it is back', async () => {
      const s = await schema();
      const proxy = await TcpProxy.start(new URL(s.url));
      try {
        const store = await open(proxy.url);
        const orgId = (await store.defaultOrg()).id;
        const c = channelRecord(orgId, 'before');
        await store.insertChannel(c);
        expect(store.failure()).toBeNull();

        await proxy.cut();
        const refused = { code: 'unavailable', status: 503, retryAfter: 1 };
        await expect(store.insertChannel(channelRecord(orgId, 'during'))).rejects.toMatchObject(refused);
        await expect(store.commitTick(1, [change(c, { set: { score: 1 }, frame: 1 })])).rejects.toMatchObject(refused);
        expect(store.failure()).toMatch(/unreachable/);
        await expect(store.touchKey('key_x', '2024-03-01T12:00:00.000Z')).resolves.toBeUndefined();

        await proxy.resume();
        const after = channelRecord(orgId, 'after');
        await store.insertChannel(after);
        expect(store.failure()).toBeNull();
        expect((await store.listChannels(orgId, { limit: 10 })).map((x) => x.name)).toEqual(['before', 'after']);
      } finally {
        await proxy.cut();
      }
    });
  });
});

/** A TCP relay to Postgres that a test can cut (every connection dropped, new ones refused) and resume. */
class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  private port = 0;

  private constructor(private readonly target: URL) {
    this.server = net.createServer((client) => this.relay(client));
  }

  static async start(target: URL): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.resume();
    return proxy;
  }

  /** The target's URL (credentials, database, options) through this relay. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  resume(): Promise<void> {
    return new Promise((resolve) =>
      this.server.listen(this.port, '127.0.0.1', () => {
        this.port = (this.server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  }

  cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    return new Promise((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(s);
      });
    }
    client.pipe(upstream).pipe(client);
  }
}

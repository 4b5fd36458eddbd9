import pg from 'pg';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { freshSchema, serviceGate, serviceUrl } from './services.js';

const postgres = serviceGate('postgres');
const redis = serviceGate('redis');

describe.skipIf(postgres.skip)(`test services: PostgreSQL${postgres.label}`, () => {
  it('gives each test a schema of its own, first on the search path, and drops it', async () => {
    const schema = await freshSchema();
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE probe (id int)');
      const { rows } = await client.query<{ s: string }>('SELECT current_schema() AS s');
      expect(rows[0]!.s).toBe(schema.schema);
    } finally {
      await client.end();
    }
    await schema.drop();
    const admin = new pg.Client({ connectionString: serviceUrl('postgres') });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema.schema]);
      expect(rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

describe.skipIf(redis.skip)(`test services: Redis${redis.label}`, () => {
  it('answers on the URL the tests are given', async () => {
    const client = new Redis(serviceUrl('redis'), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });
});

/**
 * The Postgres and Redis the several-node tests run against (docs/architecture/several-nodes.md). They come from
 * ONAIR_TEST_DATABASE_URL and ONAIR_TEST_REDIS_URL, which `eval "$(bash test/services/start.sh)"` sets (.ci/run does).
 * Without them a suite that needs one is skipped, with the reason in its name — except in CI (CI=true), where a
 * missing service fails the run: CI installs and starts both, so a skip there would hide a suite that cannot run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.ONAIR_TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.ONAIR_TEST_REDIS_URL || undefined;
const IN_CI = process.env.CI === 'true';

export interface ServiceGate {
  /** Pass to describe.skipIf / it.skipIf. */
  skip: boolean;
  /** Appended to the suite's name: says why it was skipped. */
  label: string;
}

/** Whether suites needing `service` run here. In CI they always run (and fail if the service is missing). */
export function serviceGate(service: 'postgres' | 'redis'): ServiceGate {
  const url = service === 'postgres' ? TEST_DATABASE_URL : TEST_REDIS_URL;
  if (url || IN_CI) return { skip: false, label: '' };
  const variable = service === 'postgres' ? 'ONAIR_TEST_DATABASE_URL' : 'ONAIR_TEST_REDIS_URL';
  return { skip: true, label: ` (skipped: no ${variable}; eval "$(bash test/services/start.sh)")` };
}

/** The URL of a service a running suite needs; throws with the way to start it when it is missing (CI). */
export function serviceUrl(service: 'postgres' | 'redis'): string {
  const url = service === 'postgres' ? TEST_DATABASE_URL : TEST_REDIS_URL;
  if (url) return url;
  throw new Error(
    `This suite needs ${service === 'postgres' ? 'PostgreSQL (ONAIR_TEST_DATABASE_URL)' : 'Redis (ONAIR_TEST_REDIS_URL)'}: ` +
      'run eval "$(bash test/services/start.sh)" first (.ci/run does).',
  );
}

/** A name no other test uses: for a Postgres schema or a Redis key prefix. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export interface TestSchema {
  /** The database URL with the schema first on the search path: what a store under test connects with. */
  url: string;
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** A fresh, empty Postgres schema: each test gets its own database state without the cost of a new database. */
export async function freshSchema(): Promise<TestSchema> {
  const base = serviceUrl('postgres');
  const schema = uniqueName('t');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

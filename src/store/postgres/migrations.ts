/**
 * Numbered, forward-only migrations of the Postgres schema. Never edit one that has shipped: add the next number.
 *
 * The numbers and names are SQLite's (../sqlite/migrations.ts), and a Postgres database at version N holds the
 * tables, columns and indexes a SQLite one holds at N, so a version means the same in both stores: a new
 * migration is added to both lists under one number. What SQLite's steps did to data written by older onair
 * (v3 turned invite tokens into invitations, v4 rewrote single-scene buses and old scene formats) is not
 * repeated: no Postgres database holds data older than this store.
 *
 * Column types, against SQLite's:
 * - Ids, ISO 8601 timestamps and the names of a channel's inputs and clocks are text in the C collation: they
 *   sort and compare byte by byte, as SQLite's BINARY does, whatever the database's default collation (creation
 *   order is id order; a cutoff compares timestamps as strings). Timestamps stay the strings the domain handed
 *   in, returned unchanged.
 * - JSON stays text, as written: the bytes are the application's (a webhook body is signed as it is; jsonb
 *   would reorder keys), and nothing queries inside it.
 * - Frame numbers, sequence numbers and ms-since-epoch times are bigint; flags are boolean.
 *
 * All pending migrations run in one transaction at open, under an advisory lock, so two processes opening one
 * database at once apply each migration once.
 */
import { LOCKS, type Database } from './database.js';
import { MIGRATIONS_FROM_13 } from './migrations-from-13.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE orgs (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name text NOT NULL,
        hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        permissions text NOT NULL,
        channel_ids text,
        created_at text COLLATE "C" NOT NULL,
        last_used_at text COLLATE "C",
        revoked_at text COLLATE "C"
      );
      CREATE TABLE channels (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name text NOT NULL,
        fps double precision NOT NULL,
        width integer NOT NULL,
        height integer NOT NULL,
        output_token text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        program_scene_id text COLLATE "C",
        program_since text COLLATE "C",
        preview_scene_id text COLLATE "C",
        frame bigint NOT NULL DEFAULT 0,
        live_updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX channels_org ON channels(org_id, id);
      CREATE TABLE scenes (
        id text COLLATE "C" PRIMARY KEY,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name text NOT NULL,
        definition text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX scenes_channel ON scenes(channel_id, id);
      CREATE TABLE channel_inputs (
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name text COLLATE "C" NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (channel_id, name)
      );
    `,
  },
  {
    version: 2,
    name: 'accounts',
    sql: `
      CREATE TABLE users (
        id text COLLATE "C" PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE TABLE memberships (
        user_id text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        role text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (user_id, org_id)
      );
      CREATE INDEX memberships_org ON memberships(org_id);
      CREATE TABLE sessions (
        hash text PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at text COLLATE "C" NOT NULL,
        expires_at text COLLATE "C" NOT NULL
      );
      CREATE TABLE one_time_tokens (
        hash text PRIMARY KEY,
        kind text NOT NULL,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        user_id text COLLATE "C" REFERENCES users(id) ON DELETE CASCADE,
        created_at text COLLATE "C" NOT NULL,
        expires_at text COLLATE "C" NOT NULL,
        used_at text COLLATE "C"
      );
    `,
  },
  {
    version: 3,
    name: 'invitations',
    // An invitation names an email, not an account. One-time tokens lose their NOT NULL workspace: a password
    // reset belongs to a user, not a workspace.
    sql: `
      CREATE TABLE invitations (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        created_at text COLLATE "C" NOT NULL,
        expires_at text COLLATE "C" NOT NULL,
        accepted_at text COLLATE "C",
        accepted_by text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL
      );
      CREATE INDEX invitations_org ON invitations(org_id, id);
      ALTER TABLE one_time_tokens ALTER COLUMN org_id DROP NOT NULL;
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
      CREATE INDEX one_time_tokens_expiry ON one_time_tokens(expires_at);
    `,
  },
  {
    version: 4,
    name: 'layers, clocks and events',
    // Buses hold one scene per layer: program and preview are JSON arrays of entries. Clock states live in
    // their own table, written with the tick. Events are written in the tick's transaction, one row per
    // workspace per tick (./postgres-event-log.ts); they outlive a deleted channel, so they carry no foreign key.
    sql: `
      ALTER TABLE channels ADD COLUMN program text NOT NULL DEFAULT '[]';
      ALTER TABLE channels ADD COLUMN preview text NOT NULL DEFAULT '[]';
      ALTER TABLE channels DROP COLUMN program_scene_id;
      ALTER TABLE channels DROP COLUMN program_since;
      ALTER TABLE channels DROP COLUMN preview_scene_id;
      CREATE TABLE channel_clocks (
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name text COLLATE "C" NOT NULL,
        running boolean NOT NULL,
        ms double precision NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (channel_id, name)
      );
      CREATE TABLE event_batches (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        last_id text COLLATE "C" NOT NULL,
        first_id text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        count integer NOT NULL,
        types integer NOT NULL,
        channels text,
        body text NOT NULL
      );
      CREATE UNIQUE INDEX event_batches_org ON event_batches(org_id, last_id);
    `,
  },
  {
    version: 5,
    name: 'outgoing webhooks',
    // Subscriptions keep their signing secret sealed (src/crypto/secret-box.ts). The event log is the outbox:
    // webhook_dispatch holds the last event batch fanned out, moved in the same transaction as the deliveries it
    // created. A delivery's body is the envelope as sent, dropped once the delivery is finished.
    sql: `
      CREATE TABLE webhooks (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        url text NOT NULL,
        events text NOT NULL,
        channel_id text COLLATE "C",
        description text,
        sealed_secret text NOT NULL,
        status text NOT NULL,
        consecutive_failures integer NOT NULL DEFAULT 0,
        last_error text,
        disabled_at text COLLATE "C",
        created_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX webhooks_org ON webhooks(org_id, id);
      CREATE TABLE webhook_dispatch (
        id integer PRIMARY KEY CHECK (id = 1),
        last_seq bigint NOT NULL
      );
      INSERT INTO webhook_dispatch (id, last_seq) SELECT 1, coalesce(max(seq), 0) FROM event_batches;
      CREATE TABLE webhook_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id text COLLATE "C" NOT NULL,
        type text NOT NULL,
        event_created_at text COLLATE "C" NOT NULL,
        body text,
        state text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_at bigint NOT NULL,
        UNIQUE (webhook_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(webhook_id, next_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(event_created_at) WHERE state <> 'pending';
      CREATE TABLE webhook_attempts (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id text COLLATE "C" NOT NULL,
        type text NOT NULL,
        attempt integer NOT NULL,
        outcome text NOT NULL,
        status integer,
        error text,
        duration_ms double precision,
        at text COLLATE "C" NOT NULL
      );
      CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, seq);
      CREATE INDEX webhook_attempts_at ON webhook_attempts(at);
    `,
  },
  {
    version: 6,
    name: 'incoming webhooks',
    // A hook belongs to a channel and goes with it. Its URL token is kept as a SHA-256 hash only; its signing
    // secret, when it has one, is sealed like outgoing ones. The log keeps a hook's newest posts.
    sql: `
      CREATE TABLE incoming_hooks (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        channel_id text COLLATE "C" NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        mapping text NOT NULL,
        require_signature boolean NOT NULL,
        sealed_secret text,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX incoming_hooks_channel ON incoming_hooks(channel_id, id);
      CREATE TABLE incoming_hook_deliveries (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        hook_id text COLLATE "C" NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        at text COLLATE "C" NOT NULL,
        status integer NOT NULL,
        applied text NOT NULL,
        ignored text NOT NULL,
        error text,
        payload text NOT NULL,
        dry_run boolean NOT NULL
      );
      CREATE INDEX incoming_hook_deliveries_hook ON incoming_hook_deliveries(hook_id, seq);
    `,
  },
  {
    version: 7,
    name: 'webhook retries by time',
    sql: `CREATE INDEX webhook_deliveries_next ON webhook_deliveries(next_at) WHERE state = 'pending';`,
  },
  {
    version: 8,
    name: 'idempotency keys',
    // What a request sent with an Idempotency-Key answered, for 24 hours; the body is sealed by the API (it may
    // hold a secret shown once). A row without a status is a request still running (or cut off by a restart).
    sql: `
      CREATE TABLE idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        owner text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        status integer,
        headers text,
        body text,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    version: 9,
    name: 'webhook delivery claims',
    // A delivery being attempted is claimed by the node attempting it until a time (ms since the epoch): workers
    // on several nodes never make the same attempt at once, and a dead node's claim runs out. The index finds the
    // first claim to run out (the worker wakes then) among the few deliveries in flight.
    sql: `
      ALTER TABLE webhook_deliveries ADD COLUMN claimed_by text COLLATE "C", ADD COLUMN claimed_until bigint;
      CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries(claimed_until)
        WHERE state = 'pending' AND claimed_until IS NOT NULL;
    `,
  },
  {
    version: 10,
    name: 'who may create workspaces',
    // The server admin is the earliest owner of the first workspace (first-run setup's account); nobody else may
    // create workspaces until the admin allows it (why: ../sqlite/migrations.ts, the same step).
    sql: `
      ALTER TABLE users ADD COLUMN server_admin boolean NOT NULL DEFAULT false,
        ADD COLUMN creates_workspaces boolean NOT NULL DEFAULT false;
      UPDATE users SET server_admin = true, creates_workspaces = true WHERE id = (
        SELECT m.user_id FROM memberships m
        WHERE m.role = 'owner' AND m.org_id = (SELECT id FROM orgs ORDER BY id LIMIT 1)
        ORDER BY m.created_at, m.user_id LIMIT 1);
      CREATE UNIQUE INDEX users_server_admin ON users(server_admin) WHERE server_admin;
      CREATE TABLE server_settings (
        id integer PRIMARY KEY CHECK (id = 1),
        everyone_creates_workspaces boolean NOT NULL
      );
      INSERT INTO server_settings (id, everyone_creates_workspaces) VALUES (1, false);
    `,
  },
  {
    version: 11,
    name: 'incoming hook refusals and replay keys',
    // Posts refused at a hook's door get their own log, one line per second with a count, so a flood never pushes
    // accepted posts out; a signed post's signature and delivery id are remembered until its timestamp leaves the
    // 300 s window, so a replay is refused on every node.
    sql: `
      CREATE TABLE incoming_hook_refusals (
        hook_id text COLLATE "C" NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        at text COLLATE "C" NOT NULL,
        status integer NOT NULL,
        error text NOT NULL,
        payload text NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (hook_id, at)
      );
      CREATE TABLE incoming_hook_claims (
        hook_id text COLLATE "C" NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        key text COLLATE "C" NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (hook_id, key)
      );
      CREATE INDEX incoming_hook_claims_expiry ON incoming_hook_claims(expires_at);
    `,
  },
  {
    version: 12,
    name: 'webhook secret rolls',
    // A rolled webhook secret: the one it replaced keeps signing deliveries, beside the new one, until it expires
    // (docs/webhooks.md, "Rolling the secret"). Sealed like the current one, bound to the same subscription id.
    sql: `
      ALTER TABLE webhooks ADD COLUMN previous_sealed_secret text,
        ADD COLUMN previous_secret_expires_at text COLLATE "C";
    `,
  },
  ...MIGRATIONS_FROM_13,
];

/** Applies the migrations this database lacks, all in one transaction; a second process waits, then has none. */
export async function migrate(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock(LOCKS.migrations);
    await tx.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
    const applied = new Set(
      (await tx.rows<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await tx.run(m.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    }
  });
}

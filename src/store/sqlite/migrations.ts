/**
 * Numbered, forward-only migrations. Never edit one that has shipped: add the next number.
 */
import type Database from 'better-sqlite3';
import { MIGRATIONS_FROM_13 } from './migrations-from-13.js';
import { isCurrentScene, upgradeScene, type OldSceneDefinition } from './upgrade-scene.js';

/**
 * One step of the schema. `sql` runs first, then `up` (for what SQL cannot do, such as rewriting JSON with
 * the application's own rules), in the same transaction as the record of the migration: a migration is
 * applied whole or not at all.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  up?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE orgs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        permissions TEXT NOT NULL,
        channel_ids TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE channels (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        fps REAL NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        output_token TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        program_scene_id TEXT,
        program_since TEXT,
        preview_scene_id TEXT,
        frame INTEGER NOT NULL DEFAULT 0,
        live_updated_at TEXT NOT NULL
      );
      CREATE INDEX channels_org ON channels(org_id, id);
      CREATE TABLE scenes (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        definition TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX scenes_channel ON scenes(channel_id, id);
      CREATE TABLE channel_inputs (
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (channel_id, name)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'accounts',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE memberships (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (user_id, org_id)
      );
      CREATE INDEX memberships_org ON memberships(org_id);
      CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE TABLE one_time_tokens (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'invitations',
    // An invitation names an email, not an account: the account is created (or, for an existing one,
    // the membership added while signed in) only when the link is accepted. Users created by the old
    // invitations, who never set a password, become pending invitations carrying the same token hash, so
    // links already sent keep working; the password-less accounts themselves are removed. One-time tokens
    // lose their NOT NULL workspace: a password reset belongs to a user, not a workspace.
    sql: `
      CREATE TABLE invitations (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        email TEXT NOT NULL,
        role TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        accepted_at TEXT,
        accepted_by TEXT REFERENCES users(id) ON DELETE SET NULL
      );
      CREATE INDEX invitations_org ON invitations(org_id, id);
      INSERT INTO invitations (id, org_id, email, role, token_hash, created_at, expires_at)
        SELECT 'inv_' || lower(hex(randomblob(16))), t.org_id, u.email, COALESCE(m.role, 'viewer'), t.hash,
          t.created_at, t.expires_at
        FROM one_time_tokens t
        JOIN users u ON u.id = t.user_id
        LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = t.org_id
        WHERE t.kind = 'invite' AND t.used_at IS NULL AND u.password_hash IS NULL;
      DELETE FROM users WHERE password_hash IS NULL;
      CREATE TABLE one_time_tokens_v3 (
        hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE,
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
      INSERT INTO one_time_tokens_v3 SELECT * FROM one_time_tokens WHERE kind = 'setup';
      DROP TABLE one_time_tokens;
      ALTER TABLE one_time_tokens_v3 RENAME TO one_time_tokens;
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
      CREATE INDEX one_time_tokens_expiry ON one_time_tokens(expires_at);
    `,
  },
  {
    version: 4,
    name: 'layers, clocks and events',
    // Buses hold one scene per layer: program and preview become JSON arrays of entries, the old
    // single scene landing on layer 0. Clock states live in their own table, written with the tick. Events
    // are written in the tick's transaction, one row per workspace per tick (./event-log.ts), and kept for
    // 7 days; they outlive a deleted channel (it is history), so they carry no foreign key. Scene
    // definitions are rewritten to format v1 by `up`.
    sql: `
      ALTER TABLE channels ADD COLUMN program TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE channels ADD COLUMN preview TEXT NOT NULL DEFAULT '[]';
      UPDATE channels
        SET program = json_array(json_object('sceneId', program_scene_id, 'layer', 0,
          'since', coalesce(program_since, live_updated_at)))
        WHERE program_scene_id IS NOT NULL;
      UPDATE channels SET preview = json_array(json_object('sceneId', preview_scene_id, 'layer', 0))
        WHERE preview_scene_id IS NOT NULL;
      ALTER TABLE channels DROP COLUMN program_scene_id;
      ALTER TABLE channels DROP COLUMN program_since;
      ALTER TABLE channels DROP COLUMN preview_scene_id;
      CREATE TABLE channel_clocks (
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        running INTEGER NOT NULL,
        ms REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (channel_id, name)
      ) WITHOUT ROWID;
      CREATE TABLE event_batches (
        seq INTEGER PRIMARY KEY,
        org_id TEXT NOT NULL,
        last_id TEXT NOT NULL,
        first_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        count INTEGER NOT NULL,
        types INTEGER NOT NULL,
        channels TEXT,
        body TEXT NOT NULL
      );
      CREATE UNIQUE INDEX event_batches_org ON event_batches(org_id, last_id);
    `,
    up: upgradeSceneDefinitions,
  },
  {
    version: 5,
    name: 'outgoing webhooks',
    // Subscriptions keep their signing secret sealed (AES-256-GCM, src/crypto/secret-box.ts). The
    // event log is the outbox: webhook_dispatch holds the last event batch fanned out, moved in the same
    // transaction as the deliveries it created. A delivery is one event for one subscription; its body is the
    // envelope as sent, dropped once the delivery is finished. webhook_attempts is the delivery log users read.
    sql: `
      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        channel_id TEXT,
        description TEXT,
        sealed_secret TEXT NOT NULL,
        status TEXT NOT NULL,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        disabled_at TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhooks_org ON webhooks(org_id, id);
      CREATE TABLE webhook_dispatch (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_seq INTEGER NOT NULL
      );
      INSERT INTO webhook_dispatch (id, last_seq) SELECT 1, coalesce(max(seq), 0) FROM event_batches;
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY,
        webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        event_created_at TEXT NOT NULL,
        body TEXT,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        UNIQUE (webhook_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(webhook_id, next_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(event_created_at) WHERE state != 'pending';
      CREATE TABLE webhook_attempts (
        seq INTEGER PRIMARY KEY,
        webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        status INTEGER,
        error TEXT,
        duration_ms REAL,
        at TEXT NOT NULL
      );
      CREATE INDEX webhook_attempts_webhook ON webhook_attempts(webhook_id, seq);
      CREATE INDEX webhook_attempts_at ON webhook_attempts(at);
    `,
  },
  {
    version: 6,
    name: 'incoming webhooks',
    // A hook belongs to a channel and goes with it. Its URL token is kept as a SHA-256 hash only;
    // its signing secret, when it has one, is sealed like outgoing ones. The log keeps a hook's newest posts.
    sql: `
      CREATE TABLE incoming_hooks (
        id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        mapping TEXT NOT NULL,
        require_signature INTEGER NOT NULL,
        sealed_secret TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX incoming_hooks_channel ON incoming_hooks(channel_id, id);
      CREATE TABLE incoming_hook_deliveries (
        seq INTEGER PRIMARY KEY,
        hook_id TEXT NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        status INTEGER NOT NULL,
        applied TEXT NOT NULL,
        ignored TEXT NOT NULL,
        error TEXT,
        payload TEXT NOT NULL,
        dry_run INTEGER NOT NULL
      );
      CREATE INDEX incoming_hook_deliveries_hook ON incoming_hook_deliveries(hook_id, seq);
    `,
  },
  {
    version: 7,
    name: 'webhook retries by time',
    // The worker asks when the next pending delivery falls due after every pump: without an index on the time
    // alone that read walked every pending delivery (0.8 ms with 20,000 pending, bench/webhooks.ts).
    sql: `CREATE INDEX webhook_deliveries_next ON webhook_deliveries(next_at) WHERE state = 'pending';`,
  },
  {
    version: 8,
    name: 'idempotency keys',
    // What a request sent with an Idempotency-Key answered, for 24 hours; the body is sealed (it may
    // hold a secret shown once). A row without a status is a request still running (or cut off by a restart).
    sql: `
      CREATE TABLE idempotency_keys (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    version: 9,
    name: 'webhook delivery claims',
    // A delivery being attempted is claimed by the node attempting it until a time (ms since the epoch):
    // workers on several nodes never make the same attempt at once, and a dead node's claim runs out. The index
    // finds the first claim to run out (the worker wakes then) among the few deliveries in flight.
    sql: `
      ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;
      ALTER TABLE webhook_deliveries ADD COLUMN claimed_until INTEGER;
      CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries(claimed_until)
        WHERE state = 'pending' AND claimed_until IS NOT NULL;
    `,
  },
  {
    version: 10,
    name: 'who may create workspaces',
    // Creating a workspace becomes a right the server admin gives (docs/deploy.md, "Who may do what"). The admin
    // is the account first-run setup made: the earliest owner of the first workspace (setup's membership is its
    // oldest). Nobody else gets the right, not even accounts that created workspaces before: anyone could then, so
    // having done it proves no trust, and an account the admin does trust costs it one click. Their workspaces stay
    // theirs; what they may still do with them is the invitation rule in docs/api.md ("Members and invitations").
    sql: `
      ALTER TABLE users ADD COLUMN server_admin INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN creates_workspaces INTEGER NOT NULL DEFAULT 0;
      UPDATE users SET server_admin = 1, creates_workspaces = 1 WHERE id = (
        SELECT m.user_id FROM memberships m
        WHERE m.role = 'owner' AND m.org_id = (SELECT id FROM orgs ORDER BY id LIMIT 1)
        ORDER BY m.created_at, m.user_id LIMIT 1);
      CREATE UNIQUE INDEX users_server_admin ON users(server_admin) WHERE server_admin = 1;
      CREATE TABLE server_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        everyone_creates_workspaces INTEGER NOT NULL
      );
      INSERT INTO server_settings (id, everyone_creates_workspaces) VALUES (1, 0);
    `,
  },
  {
    version: 11,
    name: 'incoming hook refusals and replay keys',
    // Posts refused at a hook's door (rate limited, bad signature, replayed) get their own log, one line per second
    // with a count, so a flood never pushes accepted posts out of the hook's log. A signed post's signature and
    // delivery id are remembered until its timestamp leaves the 300 s window, so a replay is refused on every node.
    sql: `
      CREATE TABLE incoming_hook_refusals (
        hook_id TEXT NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        status INTEGER NOT NULL,
        error TEXT NOT NULL,
        payload TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (hook_id, at)
      );
      CREATE TABLE incoming_hook_claims (
        hook_id TEXT NOT NULL REFERENCES incoming_hooks(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
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
      ALTER TABLE webhooks ADD COLUMN previous_sealed_secret TEXT;
      ALTER TABLE webhooks ADD COLUMN previous_secret_expires_at TEXT;
    `,
  },
  ...MIGRATIONS_FROM_13,
];

function upgradeSceneDefinitions(db: Database.Database): void {
  const update = db.prepare('UPDATE scenes SET definition = ? WHERE id = ?');
  for (const row of db.prepare('SELECT id, definition FROM scenes').all() as { id: string; definition: string }[]) {
    const definition: unknown = JSON.parse(row.definition);
    if (isCurrentScene(definition)) continue;
    update.run(JSON.stringify(upgradeScene(definition as OldSceneDefinition)), row.id);
  }
}

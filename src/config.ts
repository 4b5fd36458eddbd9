/**
 * Configuration from the environment: the only reader of process.env in the server.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_LIMITS, type ResourceLimits } from './limits/resource-limits.js';
import { canonicalIp } from './domain/ip-address.js';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './transport/socket-limits.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  ONAIR_HOST: z.string().min(1).default('0.0.0.0'),
  ONAIR_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ONAIR_DATA_DIR: z.string().min(1).default('./data'),
  ONAIR_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://graphics.example.com' })
    .optional(),
  ONAIR_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  ONAIR_BOOTSTRAP_KEY: z
    .string()
    .regex(/^onair_sk_[A-Za-z0-9]{23,}$/, 'must start with onair_sk_ and be at least 32 characters of base62')
    .optional(),
  ONAIR_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  ONAIR_DB_SYNC: z.enum(['full', 'normal']).default('full'),
  ONAIR_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  ONAIR_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const addresses = text
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const canonical = addresses.map((a) => canonicalIp(a));
      const bad = addresses.filter((_, i) => canonical[i] === null);
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not IP addresses: ${bad.join(', ')}` });
      return new Set(canonical.filter((a): a is string => a !== null));
    }),
  ONAIR_SESSION_TTL_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(24 * 3600),
  // The cap on password work (docs/deploy.md, "Sign-in under load"): argon2 runs at once, and how long one waits.
  ONAIR_PASSWORD_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  ONAIR_PASSWORD_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(250),
  ONAIR_SECRET_KEY: z
    .string()
    .min(32, 'must be at least 32 characters (for example `openssl rand -hex 32`)')
    .optional(),
  ONAIR_WEBHOOK_ALLOW_PRIVATE: z.stringbool().default(false),
  ONAIR_WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .default('3000,6000')
    .transform((text, ctx) => {
      const delays = text.split(',').map((d) => Number(d.trim()));
      if (delays.length > 10 || delays.some((d) => !Number.isInteger(d) || d < 0 || d > 60_000)) {
        ctx.addIssue({ code: 'custom', message: 'must be up to 10 comma-separated whole milliseconds (0–60000)' });
      }
      return delays;
    }),
  ONAIR_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  ONAIR_WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  // Data sources (docs/data-sources.md): the largest body a fetch reads, and how long a fetch may take in all.
  ONAIR_SOURCE_MAX_BYTES: bytes(1024 * 1024, 67_108_864), // at most 64 MiB
  ONAIR_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(60_000).default(10_000),
  // The as-run log (docs/as-run.md): days an ended interval is kept.
  ONAIR_AS_RUN_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Resource limits (docs/api.md, "Limits"): beyond them, 422 limit_reached or 429 rate_limited.
  ONAIR_LIMIT_CHANNELS_PER_WORKSPACE: limit(500),
  ONAIR_LIMIT_SCENES_PER_CHANNEL: limit(100),
  ONAIR_LIMIT_KEYS_PER_WORKSPACE: limit(500),
  ONAIR_LIMIT_WEBHOOKS_PER_WORKSPACE: limit(50),
  ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL: limit(20),
  ONAIR_LIMIT_SOURCES_PER_CHANNEL: limit(20),
  ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT: limit(20),
  ONAIR_LIMIT_CREATES_PER_ACCOUNT: limit(120),
  ONAIR_LIMIT_CREATES_PER_ADDRESS: limit(300),
  ONAIR_LIMIT_HOOK_POSTS_PER_ADDRESS: limit(100),
  ONAIR_LIMIT_RUNDOWNS_PER_CHANNEL: limit(20),
  ONAIR_LIMIT_ITEMS_PER_RUNDOWN: limit(500),
  ONAIR_LIMIT_SCHEDULED_PER_CHANNEL: limit(100),
  ONAIR_LIMIT_HISTORY_DEPTH: z.coerce.number().int().min(100).max(10_000).default(200),
  ONAIR_LIMIT_EVENT_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  // The asset library (docs/assets.md): files per workspace, their total size, and the size of one upload.
  ONAIR_LIMIT_ASSETS_PER_WORKSPACE: limit(DEFAULT_LIMITS.assetsPerWorkspace),
  ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE: bytes(DEFAULT_LIMITS.assetBytesPerWorkspace, 2 ** 40),
  ONAIR_ASSET_MAX_BYTES: bytes(DEFAULT_LIMITS.assetMaxBytes, 512 * 1024 * 1024),
  ONAIR_ASSET_SVG_MAX_BYTES: bytes(DEFAULT_LIMITS.svgMaxBytes, 16 * 1024 * 1024),
  ONAIR_GRAPHIC_UPLOAD_MAX_BYTES: bytes(DEFAULT_LIMITS.graphicUploadMaxBytes, 1024 * 1024 * 1024),
  ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE: limit(DEFAULT_LIMITS.graphicsPerWorkspace),
  // WebSocket limits (docs/api.md, "Real-time WebSocket"); 0 turns a limit off.
  ONAIR_WS_MAX_PER_CHANNEL: wsLimit(DEFAULT_SOCKET_LIMITS.connectionsPerChannel),
  ONAIR_WS_MAX_PER_ADDRESS: wsLimit(DEFAULT_SOCKET_LIMITS.connectionsPerAddress),
  ONAIR_WS_UPGRADES_PER_ADDRESS: wsLimit(DEFAULT_SOCKET_LIMITS.upgradesPerAddress),
  // uWebSockets.js takes 8 to 960 seconds.
  ONAIR_WS_MAX_CHANNELS_PER_SOCKET: wsLimit(DEFAULT_SOCKET_LIMITS.channelsPerSocket),
  ONAIR_WS_IDLE_TIMEOUT_S: z.coerce.number().int().min(8).max(960).default(DEFAULT_SOCKET_LIMITS.idleTimeoutS),
  // Several nodes (docs/architecture/several-nodes.md): both, or neither for one node on SQLite.
  ONAIR_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ONAIR_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ONAIR_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'letters, digits, dot, dash, underscore and colon, at most 64')
    .default('onair:'),
  ONAIR_NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, dot, dash and underscore, at most 64')
    .optional(),
});

/** A whole number from 0 (no limit) to 1,000,000 with a default. */
function wsLimit(fallback: number) {
  return z.coerce.number().int().min(0).max(1_000_000).default(fallback);
}

/** A size in bytes from 1 KiB to `max`, with a default. */
function bytes(fallback: number, max: number) {
  return z.coerce.number().int().min(1024).max(max).default(fallback);
}

/** A whole number from 1 to 1,000,000 with a default. */
function limit(fallback: number) {
  return z.coerce.number().int().min(1).max(1_000_000).default(fallback);
}

export interface Config {
  /** Several nodes on Postgres and Redis; undefined for one node on SQLite (the default). */
  cluster: { databaseUrl: string; redisUrl: string; redisPrefix: string; nodeId: string } | undefined;
  host: string;
  port: number;
  dataDir: string;
  /** Public base URL without a trailing slash; when unset it follows the bound port. */
  baseUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  bootstrapKey: string | undefined;
  metricsToken: string | undefined;
  dbSync: 'full' | 'normal';
  drainTimeoutMs: number;
  sessionTtlSeconds: number;
  /** Reverse proxies whose X-Forwarded-For names the client (canonical addresses); empty: none. */
  trustedProxies: ReadonlySet<string>;
  /** Seals webhook signing secrets; when unset, a key generated once into the data directory. */
  secretKey: string | undefined;
  /** Password hashes and verifications run at once in the process, and how long one waits for a turn. */
  passwords: { concurrency: number; maxWaitMs: number };
  webhooks: {
    /** Tests only: lets http and private or loopback targets through (a warning is logged at start). */
    allowPrivate: boolean;
    /** Waits before the 2nd, 3rd… attempt: an event gets one attempt more than there are delays. */
    retryDelaysMs: number[];
    timeoutMs: number;
    /** TCP + TLS handshake deadline; the attempt timeout still bounds it. */
    connectTimeoutMs: number;
  };
  /** Data sources: a fetch's body cap and time limit (private targets follow `webhooks.allowPrivate`). */
  sources: { maxBytes: number; timeoutMs: number };
  /** Days the as-run log keeps an interval after it ended. */
  asRunRetentionDays: number;
  limits: ResourceLimits;
  /** Render WebSocket connection limits (0: none) and idle timeout. */
  socketLimits: SocketLimits;
}

export class ConfigError extends Error {}

/** Several nodes: both URLs and a shared secret key, or none of it (docs/architecture/several-nodes.md). */
function clusterConfig(e: z.infer<typeof EnvSchema>): Config['cluster'] {
  const { ONAIR_DATABASE_URL: databaseUrl, ONAIR_REDIS_URL: redisUrl } = e;
  if (!databaseUrl && !redisUrl) return undefined;
  if (!databaseUrl || !redisUrl) {
    const missing = databaseUrl ? 'ONAIR_REDIS_URL' : 'ONAIR_DATABASE_URL';
    throw new ConfigError(
      `Invalid configuration:\n  ${missing}: several nodes need both ONAIR_DATABASE_URL and ONAIR_REDIS_URL (or neither, for one node on SQLite)`,
    );
  }
  if (!e.ONAIR_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  ONAIR_SECRET_KEY: several nodes must share one secret key (webhook secrets are sealed with it): set the same value on every node',
    );
  }
  return {
    databaseUrl,
    redisUrl,
    redisPrefix: e.ONAIR_REDIS_PREFIX,
    nodeId: e.ONAIR_NODE_ID ?? `${os.hostname()}-${process.pid}`,
  };
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const cluster = clusterConfig(e);
  return {
    cluster,
    host: e.ONAIR_HOST,
    port: e.ONAIR_PORT,
    dataDir: path.resolve(e.ONAIR_DATA_DIR),
    baseUrl: e.ONAIR_BASE_URL?.replace(/\/+$/, ''),
    logLevel: e.ONAIR_LOG_LEVEL,
    bootstrapKey: e.ONAIR_BOOTSTRAP_KEY,
    metricsToken: e.ONAIR_METRICS_TOKEN,
    dbSync: e.ONAIR_DB_SYNC,
    drainTimeoutMs: e.ONAIR_DRAIN_TIMEOUT_MS,
    sessionTtlSeconds: e.ONAIR_SESSION_TTL_S,
    trustedProxies: e.ONAIR_TRUSTED_PROXIES,
    secretKey: e.ONAIR_SECRET_KEY,
    passwords: { concurrency: e.ONAIR_PASSWORD_CONCURRENCY, maxWaitMs: e.ONAIR_PASSWORD_WAIT_MS },
    webhooks: {
      allowPrivate: e.ONAIR_WEBHOOK_ALLOW_PRIVATE,
      retryDelaysMs: e.ONAIR_WEBHOOK_RETRY_DELAYS_MS,
      timeoutMs: e.ONAIR_WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: e.ONAIR_WEBHOOK_CONNECT_TIMEOUT_MS,
    },
    sources: { maxBytes: e.ONAIR_SOURCE_MAX_BYTES, timeoutMs: e.ONAIR_SOURCE_TIMEOUT_MS },
    asRunRetentionDays: e.ONAIR_AS_RUN_RETENTION_DAYS,
    limits: {
      channelsPerWorkspace: e.ONAIR_LIMIT_CHANNELS_PER_WORKSPACE,
      scenesPerChannel: e.ONAIR_LIMIT_SCENES_PER_CHANNEL,
      keysPerWorkspace: e.ONAIR_LIMIT_KEYS_PER_WORKSPACE,
      webhooksPerWorkspace: e.ONAIR_LIMIT_WEBHOOKS_PER_WORKSPACE,
      incomingHooksPerChannel: e.ONAIR_LIMIT_INCOMING_HOOKS_PER_CHANNEL,
      sourcesPerChannel: e.ONAIR_LIMIT_SOURCES_PER_CHANNEL,
      workspacesPerAccount: e.ONAIR_LIMIT_WORKSPACES_PER_ACCOUNT,
      createsPerAccountPerMinute: e.ONAIR_LIMIT_CREATES_PER_ACCOUNT,
      createsPerAddressPerMinute: e.ONAIR_LIMIT_CREATES_PER_ADDRESS,
      hookPostsPerAddressPerSecond: e.ONAIR_LIMIT_HOOK_POSTS_PER_ADDRESS,
      eventDays: e.ONAIR_LIMIT_EVENT_DAYS,
      rundownsPerChannel: e.ONAIR_LIMIT_RUNDOWNS_PER_CHANNEL,
      itemsPerRundown: e.ONAIR_LIMIT_ITEMS_PER_RUNDOWN,
      scheduledPerChannel: e.ONAIR_LIMIT_SCHEDULED_PER_CHANNEL,
      historyDepth: e.ONAIR_LIMIT_HISTORY_DEPTH,
      assetsPerWorkspace: e.ONAIR_LIMIT_ASSETS_PER_WORKSPACE,
      assetBytesPerWorkspace: e.ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE,
      assetMaxBytes: e.ONAIR_ASSET_MAX_BYTES,
      svgMaxBytes: e.ONAIR_ASSET_SVG_MAX_BYTES,
      graphicUploadMaxBytes: e.ONAIR_GRAPHIC_UPLOAD_MAX_BYTES,
      graphicsPerWorkspace: e.ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE,
    },
    socketLimits: {
      connectionsPerChannel: e.ONAIR_WS_MAX_PER_CHANNEL,
      connectionsPerAddress: e.ONAIR_WS_MAX_PER_ADDRESS,
      upgradesPerAddress: e.ONAIR_WS_UPGRADES_PER_ADDRESS,
      idleTimeoutS: e.ONAIR_WS_IDLE_TIMEOUT_S,
      channelsPerSocket: e.ONAIR_WS_MAX_CHANNELS_PER_SOCKET,
    },
  };
}

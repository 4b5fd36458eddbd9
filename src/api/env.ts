import type { SecretBox } from '../crypto/secret-box.js';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Principal } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import type { Runner } from '../operations/index.js';
import type { LoginThrottle } from '../limits/login-throttle.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { ResourceLimits } from '../limits/resource-limits.js';
import type { Store } from '../store/store.js';
import type { IdempotencyKeeper } from './middleware/idempotency.js';
import type { RendererAssets } from './render/renderer-assets.js';

/**
 * `storage_failed`: storage refuses writes (Store.failure()). `redis_failed`: several nodes only, Redis cannot be
 * reached (ops for channels owned elsewhere, rate-limited routes and fan-out to other nodes fail meanwhile).
 */
export type Health = 'starting' | 'ready' | 'draining' | 'storage_failed' | 'redis_failed';

/** What /healthz reports besides the health itself. */
export interface ServerInfo {
  /** The running version (package.json). */
  version: string;
  /** When this server started, on the performance.now() clock (monotonic: uptime never jumps). */
  startedAt: number;
}

/**
 * Told of every request the API answers, for metrics. `route` is the route template that matched
 * (`/v1/channels/:id/inputs`), or one fixed label when none did: never the raw path, which a client
 * chooses and would grow the label set without bound.
 */
export type RequestObserver = (route: string, method: string, status: number, seconds: number) => void;

/** Passed to `app.fetch(request, bindings)` by main.ts: services the app reaches through `c.env`. */
export interface ApiBindings {
  observeRequest?: RequestObserver | undefined;
}

/** What the HTTP API needs from the rest of the server; main.ts provides it. */
export interface ApiDeps {
  engine: Engine;
  store: Store;
  limiter: RateLimiter;
  loginThrottle: LoginThrottle;
  auth: Authenticator;
  logger: Logger;
  /** Public base URL without trailing slash (known once the port is bound). */
  baseUrl: () => string;
  health: () => Health;
  /** Several nodes: why Redis cannot be reached right now, or null. Absent with one node (no Redis). */
  redis?: (() => string | null) | undefined;
  renderer: RendererAssets;
  /** The Prometheus text exposition. */
  metrics: () => string | Promise<string>;
  metricsToken: string | undefined;
  /** Absent only where a test builds the app on its own; /healthz then reports version "unknown". */
  info?: ServerInfo | undefined;
  sessionTtlSeconds: number;
  /** Runs every use case (../operations): routes are declarations over it. */
  runner: Runner;
  /** Seals what must not sit in the database in the clear (kept answers of idempotent requests). */
  secrets: SecretBox;
  /** How much of each thing a workspace, channel or account may have (ONAIR_LIMIT_*). */
  limits: ResourceLimits;
}

export interface ApiEnv {
  /** Undefined when the app is called without bindings (tests calling it directly). */
  Bindings: ApiBindings | undefined;
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
    /** The parsed JSON body, when the request had one. */
    body: unknown;
    /** The body as bytes, on routes that read it themselves (incoming webhooks). */
    rawBody: Uint8Array;
    /** Applies Idempotency-Key on the routes (./middleware/idempotency.ts). */
    idempotency: IdempotencyKeeper;
  };
}

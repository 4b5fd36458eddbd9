import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticate.js';
import type { Principal } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Store } from '../store/store.js';
import type { RendererAssets } from './render/renderer-assets.js';

/** `storage_failed`: writes can no longer be confirmed on disk (Store.failure()); restart the server. */
export type Health = 'starting' | 'ready' | 'draining' | 'storage_failed';

/** What the HTTP API needs from the rest of the server; main.ts provides it. */
export interface ApiDeps {
  engine: Engine;
  store: Store;
  limiter: RateLimiter;
  auth: Authenticator;
  logger: Logger;
  /** Public base URL without trailing slash (known once the port is bound). */
  baseUrl: () => string;
  health: () => Health;
  renderer: RendererAssets;
  metrics: () => string;
  metricsToken: string | undefined;
  sessionTtlSeconds: number;
}

export interface ApiEnv {
  Variables: {
    requestId: string;
    log: Logger;
    principal: Principal;
    /** The parsed JSON body, when the request had one. */
    body: unknown;
  };
}

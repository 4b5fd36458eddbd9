/**
 * What operations use to do their work, provided by main.ts. Operations reach storage, the engine and the webhook
 * machinery only through this: an entry point never writes storage or calls the engine itself.
 */
import type { Engine } from '../engine/index.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { ResourceLimits } from '../limits/resource-limits.js';
import type { Store } from '../store/store.js';
import type { IncomingHookDesk } from '../incoming-hooks/hook-desk.js';
import type { SubscriptionDesk } from '../webhooks/subscription-desk.js';
import type { SourceDesk } from '../sources/source-desk.js';
import type { OutputsDesk } from './outputs.js';

export interface Services {
  engine: Engine;
  store: Store;
  limiter: RateLimiter;
  limits: ResourceLimits;
  /** A key revoked here: cached copies forgotten, its open connections closed, other nodes told. */
  keyRevoked(keyId: string): void;
  /** Public base URL without a trailing slash (known once the port is bound). */
  baseUrl(): string;
  /** What outgoing webhook operations need beyond storage: URL checks, sealing, the live index, pings. */
  webhooks: SubscriptionDesk;
  /** What incoming hook operations need beyond storage: sealing secrets, the door a post passes. */
  incomingHooks: IncomingHookDesk;
  /** What data source operations need beyond storage: URL checks, the poller, fetches now, dry runs. */
  sources: SourceDesk;
  /** The output pages connected to this server (src/outputs). */
  outputs: OutputsDesk;
  now(): number;
}

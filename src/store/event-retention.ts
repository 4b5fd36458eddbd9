/**
 * What the store keeps for a while only: the event log keeps 7 days (docs/api.md, "Events"), idempotency keys
 * 24 hours ("Idempotent requests"), the as-run log 90 days after an interval ended (docs/as-run.md, "Retention"). Older rows are deleted at start and then every hour, in short batches that
 * let ticks run in between.
 */
import type { Logger } from 'pino';
import type { Store } from './store.js';

export const EVENT_RETENTION_MS = 7 * 24 * 3600_000;
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600_000;
export const AS_RUN_RETENTION_MS = 90 * 24 * 3600_000;
const EVERY_MS = 3600_000;

interface PruneOptions {
  everyMs?: number;
  now?: () => number;
}

interface EventPruneOptions extends PruneOptions {
  /** How long events are kept (ONAIR_LIMIT_EVENT_DAYS); 7 days unless given. */
  retentionMs?: number;
}

/** Prunes events now and on a timer that never keeps the process alive; returns the stop function. */
export function startEventPruning(
  store: Pick<Store, 'pruneEvents'>,
  logger: Logger,
  { retentionMs = EVENT_RETENTION_MS, ...options }: EventPruneOptions = {},
): () => void {
  return startPruning('events', (before) => store.pruneEvents(before), retentionMs, logger, options);
}

/** The same for idempotency keys past their 24 hours. */
export function startIdempotencyPruning(
  store: Pick<Store, 'idempotency'>,
  logger: Logger,
  options: PruneOptions = {},
): () => void {
  const prune = (before: string) => store.idempotency.prune(before);
  return startPruning('idempotency keys', prune, IDEMPOTENCY_RETENTION_MS, logger, options);
}

/** The same for as-run intervals that ended more than `retentionMs` ago (ONAIR_AS_RUN_RETENTION_DAYS). */
export function startAsRunPruning(
  store: Pick<Store, 'asRun'>,
  logger: Logger,
  { retentionMs = AS_RUN_RETENTION_MS, ...options }: EventPruneOptions = {},
): () => void {
  return startPruning('as-run intervals', (before) => store.asRun.prune(before), retentionMs, logger, options);
}

function startPruning(
  what: string,
  pruneBefore: (before: string) => Promise<number>,
  retentionMs: number,
  logger: Logger,
  { everyMs = EVERY_MS, now = Date.now }: PruneOptions,
): () => void {
  let running: Promise<void> | null = null;
  const prune = () => {
    // A prune still working through a long log is not started twice.
    running ??= pruneBefore(new Date(now() - retentionMs).toISOString())
      .then(
        (pruned) => {
          if (pruned > 0) logger.info({ pruned }, `${what} pruned`);
        },
        (err: unknown) => logger.error({ err }, `pruning ${what} failed`),
      )
      .finally(() => (running = null));
  };
  prune();
  const timer = setInterval(prune, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The event log keeps 7 days (docs/api.md, "Events"): older events are deleted at start and then every
 * hour, in short batches that let ticks run in between.
 */
import type { Logger } from 'pino';
import type { Store } from './store.js';

export const EVENT_RETENTION_MS = 7 * 24 * 3600_000;
const EVERY_MS = 3600_000;

/** Prunes now and on a timer that never keeps the process alive; returns the stop function. */
export function startEventPruning(
  store: Pick<Store, 'pruneEvents'>,
  logger: Logger,
  options: { everyMs?: number; now?: () => number } = {},
): () => void {
  const { everyMs = EVERY_MS, now = Date.now } = options;
  let running: Promise<void> | null = null;
  const prune = () => {
    // A prune still working through a long log is not started twice.
    running ??= store
      .pruneEvents(new Date(now() - EVENT_RETENTION_MS).toISOString())
      .then(
        (pruned) => {
          if (pruned > 0) logger.info({ pruned }, 'events pruned');
        },
        (err: unknown) => logger.error({ err }, 'pruning events failed'),
      )
      .finally(() => (running = null));
  };
  prune();
  const timer = setInterval(prune, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

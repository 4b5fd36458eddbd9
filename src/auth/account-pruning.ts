/**
 * Expired sessions, used or expired one-time tokens and settled invitations are deleted at start and
 * then every hour, so the tables hold only what can still be used.
 */
import type { Logger } from 'pino';
import type { AccountStore } from '../store/account-store.js';

const EVERY_MS = 3600_000;

/** Prunes now and on a timer that never keeps the process alive; returns the stop function. */
export function startAccountPruning(accounts: AccountStore, logger: Logger, everyMs = EVERY_MS): () => void {
  const prune = () =>
    accounts.prune(new Date().toISOString()).then(
      (pruned) => {
        if (pruned.sessions + pruned.tokens + pruned.invitations > 0) logger.info({ pruned }, 'account records pruned');
      },
      (err: unknown) => logger.error({ err }, 'pruning account records failed'),
    );
  void prune();
  const timer = setInterval(() => void prune(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

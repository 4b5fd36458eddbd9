/**
 * The as-run log's moving parts besides the ticks (docs/as-run.md): what the server ends and begins by itself around a
 * restart, the heartbeat an inferred end comes from, and outputs' confirmations. main.ts builds one per node and wires
 * the engine's onAsRun to `committed`; `confirm` is what output reports call.
 *
 * One node (SQLite) calls `resume` at start and `stop` at a clean stop. With several nodes a node's start or stop is
 * not the channel's: another node goes on ticking it from the last committed tick, so its intervals stay open.
 */
import type { Logger } from 'pino';
import type { AsRunChange, Engine, StoredChannel } from '../engine/index.js';
import { repeatedOnce } from '../logger.js';
import type { AsRunStore } from '../store/as-run-store.js';
import { Confirmations, type Confirmation } from './confirmations.js';
import { closeAt, inferredClose, restartedRuns } from './server-runs.js';

/** How often open intervals are marked as seen on air: an inferred end is at most this much before the crash. */
export const AS_RUN_SEEN_MS = 5000;

export interface AsRunLogDeps {
  store: AsRunStore;
  engine: Pick<Engine, 'ticks' | 'has' | 'channelRecord'>;
  logger: Logger;
  now: () => number;
}

export interface AsRunLog {
  /**
   * One node, at start, after the engine is loaded and before it ticks: intervals the last run left open end where
   * they were last seen on air (`endInferred`), and every instance of the restored program begins a new one.
   */
  resume(channels: readonly StoredChannel[]): Promise<void>;
  /** Marks the open intervals seen on air now and every `everyMs`; returns the stop function. */
  startSeeing(everyMs?: number): () => void;
  /** One node, at a clean stop, after the engine's last tick: every open interval ends now. */
  stop(): Promise<void>;
  /** The engine's onAsRun. */
  committed(channelId: string, asRun: AsRunChange): void;
  /** An output painted a frame: the interval it belongs to records it. Never rejects. */
  confirm(c: Confirmation): Promise<void>;
}

export function createAsRunLog(deps: AsRunLogDeps): AsRunLog {
  const { store, engine, logger, now } = deps;
  const confirmations = new Confirmations(deps);
  const unseen = repeatedOnce((err, _ctx: null) => logger.warn({ err }, 'as-run heartbeat not written'));
  return {
    async resume(channels) {
      const fps = new Map(channels.map((c) => [c.channel.id, c.channel.fps]));
      const open = (await store.listOpen()).filter((o) => fps.has(o.channelId));
      const ends = open.map((o) => inferredClose(o, fps.get(o.channelId)!));
      const started = restartedRuns(channels, now());
      await store.close(ends, started);
      for (const s of started) confirmations.committed(s.channelId, { ended: [], updated: [], started: [s.start] });
      if (ends.length > 0) logger.warn({ intervals: ends.length }, 'as-run: intervals left on air by a crash ended');
    },
    startSeeing(everyMs = AS_RUN_SEEN_MS) {
      let running: Promise<void> | null = null;
      const beat = () => {
        running ??= store
          .seen(new Date(now()).toISOString())
          .catch((err: unknown) => unseen(err, null))
          .finally(() => (running = null));
      };
      beat();
      const timer = setInterval(beat, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    async stop() {
      const open = (await store.listOpen()).filter((o) => engine.has(o.channelId));
      const at = now();
      await store.close(
        open.map((o) => closeAt(o, engine.channelRecord(o.channelId).fps, at, false)),
        [],
      );
    },
    committed: (channelId, asRun) => confirmations.committed(channelId, asRun),
    confirm: (c) => confirmations.confirm(c),
  };
}

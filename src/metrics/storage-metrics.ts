/**
 * Storage: how long each tick's write and each flush of the WAL take, and whether the store still
 * accepts writes (Store.failure(): a full disk ends when space is freed, anything else at a restart).
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { StoreTimings } from '../store/sqlite/sqlite-store.js';

/** Seconds: a tick's transaction takes tens of microseconds to a millisecond or two. */
const WRITE_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];
/** Seconds: fdatasync takes from well under a millisecond (fast SSD) to hundreds (a busy or network disk). */
const FLUSH_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

export function storageMetrics(registry: Registry, failure: () => string | null): StoreTimings {
  const registers = [registry];
  const write = new Histogram({
    name: 'onair_tick_write_duration_seconds',
    help: "Seconds each tick's SQLite transaction took (on the event loop)",
    buckets: WRITE_BUCKETS,
    registers,
  });
  const flush = new Histogram({
    name: 'onair_wal_flush_duration_seconds',
    help: 'Seconds each fdatasync of the WAL took (off the event loop; ONAIR_DB_SYNC=full only)',
    buckets: FLUSH_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'onair_storage_failed',
    help: '1 while storage refuses writes (a full disk until space is freed, a failure until a restart); else 0',
    registers,
    collect() {
      this.set(failure() ? 1 : 0);
    },
  });
  return {
    tickWrite: (ms) => write.observe(ms / 1000),
    walFlush: (ms) => flush.observe(ms / 1000),
  };
}

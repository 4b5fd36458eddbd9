import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { EVENT_RETENTION_MS, startEventPruning } from './event-retention.js';

afterEach(() => {
  vi.useRealTimers();
});

it('prunes events older than 7 days at start and then every hour', async () => {
  vi.useFakeTimers();
  const cutoffs: string[] = [];
  const store = { pruneEvents: async (before: string) => (cutoffs.push(before), 0) };
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  const stop = startEventPruning(store, pino({ level: 'silent' }), { now: () => now });
  await vi.advanceTimersByTimeAsync(0);
  expect(cutoffs).toEqual([new Date(now - EVENT_RETENTION_MS).toISOString()]);
  expect(cutoffs[0]).toBe('2026-11-16T12:00:00.000Z');
  await vi.advanceTimersByTimeAsync(3600_000);
  expect(cutoffs).toHaveLength(2);
  stop();
  await vi.advanceTimersByTimeAsync(3 * 3600_000);
  expect(cutoffs).toHaveLength(2);
});

it('a failing prune is logged and tried again at the next hour', async () => {
  vi.useFakeTimers();
  let calls = 0;
  const errors: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line)) });
  const store = {
    pruneEvents: async () => {
      calls++;
      throw new Error('SQLITE_BUSY');
    },
  };
  const stop = startEventPruning(store, logger);
  await vi.advanceTimersByTimeAsync(3600_000);
  stop();
  expect(calls).toBe(2);
  expect(errors).toHaveLength(2);
  expect(errors[0]).toMatchObject({ msg: 'pruning events failed' });
});

import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import type { AsRunStart } from '../engine/index.js';
import { tempDirs } from '../../test/helpers/temp-dirs.js';
import { AS_RUN_RETENTION_MS, EVENT_RETENTION_MS, startAsRunPruning, startEventPruning } from './event-retention.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { change, channelRecord, KEY_ACTOR } from './store.fixtures.js';

const tempDir = tempDirs('onair-retention-');

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

it('prunes as-run intervals that ended more than the retention ago, on a real store; an open one stays', async () => {
  const store = new SqliteStore({ dataDir: tempDir(), synchronous: 'normal' });
  try {
    const channel = channelRecord((await store.defaultOrg()).id, 'kept', 25);
    await store.insertChannel(channel);
    const now = Date.parse('2026-11-23T12:00:00.000Z');
    const day = 24 * 3600_000;
    const at = (ms: number) => new Date(ms).toISOString();
    const start = (layer: number, ms: number): AsRunStart => ({
      id: `asr_${layer}`,
      layer,
      sceneId: 'sc_x',
      sceneName: 'X',
      itemId: null,
      label: 'X',
      values: {},
      startAt: at(ms),
      startFrame: ms / 40,
      takenBy: KEY_ACTOR,
    });
    const starts = [start(1, now - 120 * day), start(2, now - 100 * day), start(3, now - 95 * day)];
    store.commitTick(1, [{ ...change(channel, { frame: 1 }), asRun: { ended: [], updated: [], started: starts } }]);
    const ends = [
      { layer: 1, endAt: at(now - 91 * day), endFrame: (now - 91 * day) / 40, clearedBy: KEY_ACTOR },
      { layer: 2, endAt: at(now - 89 * day), endFrame: (now - 89 * day) / 40, clearedBy: KEY_ACTOR },
    ];
    store.commitTick(2, [{ ...change(channel, { frame: 2 }), asRun: { ended: ends, updated: [], started: [] } }]);
    const stop = startAsRunPruning(store, pino({ level: 'silent' }), { now: () => now });
    await vi.waitFor(
      async () => {
        const left = (await store.asRun.list(channel.id, { limit: 10 })).records.map((r) => r.id);
        expect(left).toEqual(['asr_2', 'asr_3']);
      },
      { timeout: 10_000 },
    );
    stop();
    expect(AS_RUN_RETENTION_MS).toBe(90 * day);
  } finally {
    await store.close();
  }
});

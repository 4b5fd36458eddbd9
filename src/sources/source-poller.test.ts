import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SourceRecord } from '../store/source-store.js';
import { MAX_BACKOFF_MS, pollDelay, SourcePoller } from './source-poller.js';
import type { RoundOptions, RoundOutcome } from './source-round.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function record(over: Partial<SourceRecord> = {}): SourceRecord {
  return {
    id: 'src_a',
    orgId: 'org_1',
    channelId: 'ch_1',
    type: 'json_url',
    name: 'Feed',
    url: 'https://feed.example.com/',
    intervalMs: 1_000,
    mapping: {},
    row: null,
    table: null,
    paused: false,
    state: 'pending',
    cursor: 1,
    etag: null,
    lastModified: null,
    bodySha256: null,
    lastValues: {},
    lastFetchAt: null,
    lastChangeAt: null,
    lastError: null,
    failCount: 0,
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    ...over,
  };
}

/** A round the test settles by hand, recording each call and how many ran at once. */
function manualRounds() {
  const calls: { id: string; options: RoundOptions; at: number }[] = [];
  const pending: ((outcome: RoundOutcome) => void)[] = [];
  let open = 0;
  let maxOpen = 0;
  const round = (id: string, options: RoundOptions = {}) => {
    calls.push({ id, options, at: Date.now() });
    maxOpen = Math.max(maxOpen, ++open);
    return new Promise<RoundOutcome>((resolve) =>
      pending.push((outcome) => {
        open--;
        resolve(outcome);
      }),
    );
  };
  const settle = async (outcome: RoundOutcome = { kind: 'fetched', failCount: 0 }) => {
    pending.shift()!(outcome);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { round, calls, settle, maxOpen: () => maxOpen };
}

describe('pollDelay', () => {
  it('is the interval after a success, doubled per failure in a row, up to 5 min or the interval', () => {
    expect([0, 1, 2, 3].map((n) => pollDelay(1_000, n))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(pollDelay(1_000, 20)).toBe(MAX_BACKOFF_MS);
    expect(pollDelay(1_000, 10_000)).toBe(MAX_BACKOFF_MS);
    expect(pollDelay(3_600_000, 3)).toBe(3_600_000);
  });
});

describe('SourcePoller', () => {
  let owned: boolean;
  let poller: SourcePoller;

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
    owned = true;
  });
  afterEach(async () => {
    await poller?.stop();
    vi.useRealTimers();
  });

  const start = async (rounds: ReturnType<typeof manualRounds>, records: SourceRecord[], random = () => 0.5) => {
    poller = new SourcePoller({
      store: { listAllSources: async () => records },
      engine: { ticks: () => owned },
      round: rounds.round,
      logger: pino({ level: 'silent' }),
      random,
      sweepMs: 1_000,
    });
    await poller.start();
  };

  it('fetches a new source at once, then one interval after each fetch ends, with its jitter', async () => {
    const rounds = manualRounds();
    await start(rounds, [], () => 0);
    poller.put(record());
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds.calls).toHaveLength(1);
    await rounds.settle();
    // random() = 0: the interval less 10 %.
    await vi.advanceTimersByTimeAsync(899);
    expect(rounds.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds.calls).toHaveLength(2);
    await rounds.settle();
  });

  it('a refresh while a fetch runs joins it; a cursor move waits for it, then fetches: never two at once', async () => {
    const rounds = manualRounds();
    await start(rounds, []);
    poller.put(record({ intervalMs: 3_600_000 }));
    await vi.advanceTimersByTimeAsync(0);
    const joined = poller.fetchNow('src_a');
    const moved = poller.fetchNow('src_a', { move: 'next' });
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds.calls).toHaveLength(1);
    await rounds.settle({ kind: 'fetched', failCount: 0 });
    expect(await joined).toEqual({ kind: 'fetched', failCount: 0 });
    expect(rounds.calls.map((c) => c.options)).toEqual([{}, { move: 'next' }]);
    await rounds.settle();
    await moved;
    expect(rounds.maxOpen()).toBe(1);
  });

  it('an edit during a fetch is fetched as soon as that fetch ends, not an interval later', async () => {
    const rounds = manualRounds();
    await start(rounds, []);
    poller.put(record({ intervalMs: 60_000 }));
    await vi.advanceTimersByTimeAsync(0);
    poller.put(record({ intervalMs: 60_000, url: 'https://feed.example.com/other' }));
    await rounds.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds.calls).toHaveLength(2);
    await rounds.settle();
  });

  it('polls only while this node ticks the channel, and resumes when it ticks it again, when due', async () => {
    const rounds = manualRounds();
    owned = false;
    const lastFetchAt = new Date(T0 - 400).toISOString();
    await start(rounds, [record({ lastFetchAt })]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(rounds.calls).toHaveLength(0);
    owned = true;
    // The sweep finds it within a second; it was due long ago, so it is fetched then.
    await vi.advanceTimersByTimeAsync(1_001);
    expect(rounds.calls).toHaveLength(1);
    await rounds.settle();
    owned = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(rounds.calls).toHaveLength(1);
  });

  it('backs off after failures and forgets a source that is gone or paused', async () => {
    const rounds = manualRounds();
    await start(rounds, []);
    poller.put(record());
    await vi.advanceTimersByTimeAsync(0);
    await rounds.settle({ kind: 'fetched', failCount: 1 });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(rounds.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds.calls).toHaveLength(2);
    await rounds.settle({ kind: 'paused' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rounds.calls).toHaveLength(2);
    poller.put(record({ id: 'src_b' }));
    await vi.advanceTimersByTimeAsync(0);
    await rounds.settle({ kind: 'gone' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rounds.calls).toHaveLength(3);
  });
});

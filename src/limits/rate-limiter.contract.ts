/**
 * The guarantees of RateLimiter (see rate-limiter.ts), as one suite every implementation runs:
 * `rateLimiterContract('MemoryRateLimiter', (clock) => new MemoryRateLimiter(clock))`.
 * The factory receives a manual clock (milliseconds); the suite moves it, so nothing here sleeps.
 * A hit admitted at time `a` counts in the window until `a + windowMs`, when it leaves.
 */
import { describe, expect, it } from 'vitest';
import type { RateDecision, RateLimiter } from './rate-limiter.js';

export type RateLimiterFactory = (clock: () => number) => RateLimiter | Promise<RateLimiter>;

const T0 = 1_700_000_000_000;
const N = 30;
const W = 1_000;

/** A deterministic pseudo-random sequence in [0, 1) (LCG), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

export function rateLimiterContract(name: string, factory: RateLimiterFactory): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let now = T0;
    const open = async () => {
      now = T0;
      return factory(() => now);
    };
    const takeMany = async (l: RateLimiter, key: string, count: number, limit = N, windowMs = W) => {
      const out: RateDecision[] = [];
      for (let i = 0; i < count; i++) out.push(await l.take(key, limit, windowMs));
      return out;
    };
    const admitted = (ds: RateDecision[]) => ds.filter((d) => d.allowed).length;

    it('admits exactly `limit` of a burst and refuses the rest', async () => {
      const l = await open();
      const ds = await takeMany(l, 'k', 40);
      expect(ds.map((d) => d.allowed)).toEqual([...Array<boolean>(N).fill(true), ...Array<boolean>(10).fill(false)]);
    });

    it('is atomic per key: concurrent takes never admit more than `limit`', async () => {
      const l = await open();
      const ds = await Promise.all(Array.from({ length: 100 }, () => l.take('k', N, W)));
      expect(admitted(ds)).toBe(N);
    });

    it('reports limit, a remaining count that goes down to 0, and retryAfterMs 0 when admitted', async () => {
      const l = await open();
      const ds = await takeMany(l, 'k', N + 1);
      expect(ds.slice(0, N).map((d) => d.remaining)).toEqual(Array.from({ length: N }, (_, i) => N - 1 - i));
      for (const d of ds) expect(d.limit).toBe(N);
      for (const d of ds.slice(0, N)) expect(d.retryAfterMs).toBe(0);
      expect(ds[N]).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('refuses the second of two groups that straddle a second boundary until the first group leaves', async () => {
      const l = await open();
      now = T0 + 900; // near the end of one second…
      expect(admitted(await takeMany(l, 'k', N))).toBe(N);
      now = T0 + 1_100; // …and just after it: a fixed window would have reset here
      expect(admitted(await takeMany(l, 'k', N))).toBe(0);
      now = T0 + 1_899;
      expect(admitted(await takeMany(l, 'k', N))).toBe(0);
      now = T0 + 1_900;
      expect(admitted(await takeMany(l, 'k', N + 5))).toBe(N);
    });

    it('gives a retryAfterMs that is enough and no longer than needed', async () => {
      const l = await open();
      for (let i = 0; i < N; i++) {
        now = T0 + i * 10;
        expect((await l.take('k', N, W)).allowed).toBe(true);
      }
      now = T0 + 500;
      const refused = await l.take('k', N, W);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBe(500); // the first hit (T0) leaves at T0 + 1000
      now += refused.retryAfterMs - 1;
      expect((await l.take('k', N, W)).allowed).toBe(false);
      now += 1;
      expect((await l.take('k', N, W)).allowed).toBe(true);
      // Exactly one hit left the window: the next one waits for the second (T0 + 10).
      const again = await l.take('k', N, W);
      expect(again).toMatchObject({ allowed: false, retryAfterMs: 10 });
    });

    it('reports resetMs as the time until the oldest counted hit leaves', async () => {
      const l = await open();
      await l.take('k', N, W);
      now = T0 + 300;
      expect((await l.take('k', N, W)).resetMs).toBe(700);
      await takeMany(l, 'k', N - 2);
      const refused = await l.take('k', N, W);
      expect(refused.resetMs).toBe(700);
      expect(refused.retryAfterMs).toBeGreaterThanOrEqual(1);
    });

    it('does not count refused hits', async () => {
      const l = await open();
      await takeMany(l, 'k', N);
      now = T0 + 500;
      expect(admitted(await takeMany(l, 'k', 200))).toBe(0);
      now = T0 + W;
      expect(admitted(await takeMany(l, 'k', N))).toBe(N);
    });

    it('keeps keys apart', async () => {
      const l = await open();
      await takeMany(l, 'updates:ch_a', N + 10);
      expect(admitted(await takeMany(l, 'updates:ch_b', N + 10))).toBe(N);
      expect((await l.take('updates:ch_a', N, W)).allowed).toBe(false);
    });

    it('keeps different limits and windows on different keys', async () => {
      const l = await open();
      expect(admitted(await takeMany(l, 'reads:org', 610, 600, 60_000))).toBe(600);
      expect(admitted(await takeMany(l, 'creates:org', 70, 60, 60_000))).toBe(60);
      expect(admitted(await takeMany(l, 'updates:ch', 40))).toBe(N);
      now = T0 + W;
      expect(admitted(await takeMany(l, 'updates:ch', 40))).toBe(N);
      expect((await l.take('reads:org', 600, 60_000)).allowed).toBe(false);
      now = T0 + 60_000;
      expect(admitted(await takeMany(l, 'reads:org', 610, 600, 60_000))).toBe(600);
    });

    it('admits a full burst again after a long idle time', async () => {
      const l = await open();
      await takeMany(l, 'k', N);
      now = T0 + 3_600_000;
      expect(admitted(await takeMany(l, 'k', N + 1))).toBe(N);
    });

    it('decides exactly like a sliding log under an irregular load: never more than limit in any window', async () => {
      const l = await open();
      const next = random(42);
      const accepted: number[] = [];
      for (let step = 0; step < 3_000; step++) {
        // Mostly bursts of hits on the same millisecond, sometimes a pause of up to a whole window.
        const r = next();
        now += r < 0.6 ? 0 : r < 0.95 ? Math.floor(next() * 40) : Math.floor(next() * W);
        const inWindow = accepted.filter((a) => a > now - W).length;
        const d = await l.take('k', N, W);
        expect(d.allowed, `at +${now - T0} ms with ${inWindow} hits in the window`).toBe(inWindow < N);
        if (d.allowed) accepted.push(now);
      }
      for (const a of accepted) expect(accepted.filter((b) => b >= a && b < a + W).length).toBeLessThanOrEqual(N);
      expect(accepted.length).toBeGreaterThan(3 * N);
    });
  });
}

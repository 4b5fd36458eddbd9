/**
 * A seeded random source for the crash suite: the seed is printed with every run, fixed when CI=true, and
 * CHAOS_SEED replays a run (the kill moments still depend on timing, so a replay is close, not identical).
 */

export const CI_SEED = 20_260_115;

export function chooseSeed(env: NodeJS.ProcessEnv = process.env): number {
  if (env.CHAOS_SEED !== undefined && env.CHAOS_SEED !== '') {
    const seed = Number(env.CHAOS_SEED);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`CHAOS_SEED must be 0–4294967295`);
    return seed;
  }
  if (env.CI === 'true') return CI_SEED;
  return Math.floor(Math.random() * 0xffffffff);
}

export interface Rng {
  /** [0, 1) */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough to pick delays and operations. */
export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

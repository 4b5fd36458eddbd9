/**
 * The page's estimate of the server's clock, from the serverTime of snapshots, frames and heartbeats.
 * Each sample is `serverTime - receivedAt`: the true offset minus the message's one-way latency, so the
 * largest recent sample is the best estimate. Samples are kept as the best of each 5 s bucket over the
 * last 30 s, so the estimate follows slow drift and a jump of either clock instead of clinging for ever to
 * one lucky sample. Pure: the caller supplies the local times.
 */

export interface ServerClock {
  /** Oldest first; `start` is the local time of the bucket's first sample. */
  readonly buckets: readonly { readonly start: number; readonly best: number }[];
}

const BUCKET_MS = 5_000;
const WINDOW_MS = 30_000;

export function emptyServerClock(): ServerClock {
  return { buckets: [] };
}

export function addSample(clock: ServerClock, serverTime: number, receivedAt: number): ServerClock {
  const offset = serverTime - receivedAt;
  const last = clock.buckets[clock.buckets.length - 1];
  // The local clock went back: every earlier sample is measured against a clock that is gone.
  if (last && receivedAt < last.start) return { buckets: [{ start: receivedAt, best: offset }] };
  const kept = clock.buckets.filter((b) => receivedAt - b.start < WINDOW_MS);
  const newest = kept[kept.length - 1];
  if (newest && receivedAt - newest.start < BUCKET_MS) {
    if (offset <= newest.best) return kept.length === clock.buckets.length ? clock : { buckets: kept };
    return { buckets: [...kept.slice(0, -1), { start: newest.start, best: offset }] };
  }
  return { buckets: [...kept, { start: receivedAt, best: offset }] };
}

/** Server time minus local time, in ms (0 before any sample): serverNow = localNow + serverOffset. */
export function serverOffset(clock: ServerClock): number {
  let best = -Infinity;
  for (const b of clock.buckets) best = Math.max(best, b.best);
  return best === -Infinity ? 0 : best;
}

/**
 * The frame clock and the engine: tick durations, ticks that applied changes, frames published, patches
 * applied, and the clocks' own counts (ticks, late ticks, skipped frames) read when scraped.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Engine, EngineEvent, FrameRate } from '../engine/index.js';

/** Seconds: most ticks take well under a millisecond; a 60 fps frame lasts 16.7 ms. */
const TICK_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.0167, 0.025, 0.05, 0.1];

export interface EngineRecorder {
  tick(info: { fps: FrameRate; durationMs: number; changed: number }): void;
  events(events: readonly EngineEvent[]): void;
}

export function engineMetrics(registry: Registry, engine: Pick<Engine, 'clockStats'>): EngineRecorder {
  const registers = [registry];
  const duration = new Histogram({
    name: 'onair_tick_duration_seconds',
    help: 'Ticks that had queued work, by frame rate: seconds from the start of the tick to its frames published',
    labelNames: ['fps'] as const,
    buckets: TICK_BUCKETS,
    registers,
  });
  const ticksWithChanges = new Counter({
    name: 'onair_ticks_with_changes_total',
    help: 'Ticks that applied at least one change',
    registers,
  });
  const published = new Counter({
    name: 'onair_frames_published_total',
    help: 'Channel frames committed and published (one per changed channel per tick)',
    registers,
  });
  const patches = new Counter({
    name: 'onair_patches_applied_total',
    help: 'Input patches applied (REST, WebSocket, hooks)',
    registers,
  });
  clockCounters(registry, engine);
  return {
    tick({ fps, durationMs, changed }) {
      duration.observe({ fps: String(fps) }, durationMs / 1000);
      if (changed === 0) return;
      ticksWithChanges.inc();
      published.inc(changed);
    },
    events(events) {
      let n = 0;
      for (const e of events) if (e.type === 'channel.bind_updated') n++;
      if (n > 0) patches.inc(n);
    },
  };
}

/** The frame clocks count for themselves; these counters copy their totals when scraped. */
function clockCounters(registry: Registry, engine: Pick<Engine, 'clockStats'>): void {
  const fields = {
    onair_ticks_total: ['ticks', 'Frame clock ticks, by frame rate'],
    onair_late_ticks_total: ['lateTicks', 'Ticks that started more than 2 ms after their frame began, by frame rate'],
    onair_skipped_frames_total: ['skippedFrames', 'Frames skipped because the event loop was late, by frame rate'],
  } as const;
  for (const [name, [field, help]] of Object.entries(fields)) {
    new Counter({
      name,
      help,
      labelNames: ['fps'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of engine.clockStats()) this.inc({ fps: String(s.fps) }, s[field]);
      },
    });
  }
}

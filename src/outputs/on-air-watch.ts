/**
 * The instances on a channel's program bus, as the outputs of one server see them (docs/outputs.md, "Unconfirmed"):
 * each gets a deadline when it is first seen on air, is marked painted by the first output that reports it, and is
 * overdue (once) when the deadline passes with no output having painted it.
 */
import type { ProgramEntry } from '@onair/protocol';

export interface WatchedInstance {
  layer: number;
  sceneId: string;
  itemId: string | null;
  /** When it went on air (ISO 8601): with the channel and layer, it names the instance. */
  since: string;
  /** Layer, scene, item and since: what an output's confirmation is kept under. */
  key: string;
  /** Epoch ms. */
  deadline: number;
  painted: boolean;
  alerted: boolean;
}

export class OnAirWatch {
  private program: readonly ProgramEntry[] | null = null;
  /** When the bus was last looked at: an instance that went on air while nobody looked is timed from then. */
  private lookedAt: number | null = null;
  private byLayer = new Map<number, WatchedInstance>();

  /**
   * Brings the watch up to the bus (bus arrays are replaced, never changed in place: the same array is nothing new).
   * An instance new to the watch has `windowMs` from its time on air, or from the last look when it went on air
   * before that (from now, at the first look).
   */
  follow(program: readonly ProgramEntry[], now: number, windowMs: number): void {
    const lookedAt = this.lookedAt ?? now;
    this.lookedAt = now;
    if (program === this.program) return;
    this.program = program;
    const next = new Map<number, WatchedInstance>();
    for (const e of program) {
      const key = `${e.layer}|${e.sceneId}|${e.itemId ?? ''}|${e.since}`;
      const known = this.byLayer.get(e.layer);
      next.set(e.layer, known?.key === key ? known : watched(e, key, lookedAt, windowMs));
    }
    this.byLayer = next;
  }

  /** Nobody watches for now (no program output): what goes on air meanwhile is timed from the next look. */
  pause(): void {
    this.lookedAt = null;
  }

  /** The instance on `layer`, when it is of this scene and item. */
  match(layer: number, sceneId: string, itemId: string | null): WatchedInstance | undefined {
    const instance = this.byLayer.get(layer);
    return instance && instance.sceneId === sceneId && instance.itemId === itemId ? instance : undefined;
  }

  /** The keys of the instances on air that were painted. */
  paintedKeys(): string[] {
    return [...this.byLayer.values()].filter((i) => i.painted).map((i) => i.key);
  }

  /**
   * Instances past their deadline that nothing painted, neither here nor, by key, `paintedElsewhere` (other nodes'
   * outputs); each is answered once.
   */
  overdue(now: number, paintedElsewhere: ReadonlySet<string> = new Set()): WatchedInstance[] {
    const late: WatchedInstance[] = [];
    for (const instance of this.byLayer.values()) {
      if (paintedElsewhere.has(instance.key)) instance.painted = true;
      if (instance.painted || instance.alerted || now < instance.deadline) continue;
      instance.alerted = true;
      late.push(instance);
    }
    return late;
  }
}

function watched(e: ProgramEntry, key: string, lookedAt: number, windowMs: number): WatchedInstance {
  const { layer, sceneId, itemId, since } = e;
  const onAirAt = Date.parse(since);
  const deadline = (Number.isFinite(onAirAt) ? Math.max(onAirAt, lookedAt) : lookedAt) + windowMs;
  return { layer, sceneId, itemId, since, key, deadline, painted: false, alerted: false };
}

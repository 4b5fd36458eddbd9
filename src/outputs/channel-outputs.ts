/**
 * One channel's outputs on this server: the outputs themselves, the frames the channel sent here (for lag and
 * forged frames), its program instances (for confirmations and unconfirmed alerts), and the pages refused for
 * their token.
 */
import type { OutputView, RefusedOutputs } from '@onair/protocol';
import { FrameLog } from './frame-log.js';
import { OnAirWatch } from './on-air-watch.js';
import type { OutputState } from './output-state.js';

/** Least healthy first, then oldest connection first. */
const HEALTH_ORDER = { error: 0, lagging: 1, ok: 2 } as const;

export class ChannelOutputs {
  readonly outputs = new Map<string, OutputState>();
  readonly frames = new FrameLog();
  readonly watch = new OnAirWatch();
  refused: RefusedOutputs | null = null;

  constructor(readonly channelId: string) {}

  /** Outputs that reported (an output-token connection that never did is not an output yet). */
  listed(): OutputState[] {
    return [...this.outputs.values()].filter((o) => o.listed);
  }

  /** Listed outputs drawing the program bus: what confirms what is on air. */
  programOutputs(): number {
    let n = 0;
    for (const o of this.outputs.values()) if (o.listed && o.report?.bus === 'program') n++;
    return n;
  }

  /** In connection order (ids sort by creation). */
  views(): OutputView[] {
    return this.listed()
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((o) => o.view());
  }

  /** The `max` least healthy, for the WebSocket message. */
  worst(max: number): OutputView[] {
    return this.views()
      .sort((a, b) => HEALTH_ORDER[a.health] - HEALTH_ORDER[b.health])
      .slice(0, max);
  }

  refusedOne(address: string, now: number): void {
    this.refused = { count: (this.refused?.count ?? 0) + 1, lastAt: new Date(now).toISOString(), lastAddress: address };
  }

  empty(): boolean {
    return this.outputs.size === 0 && this.refused === null;
  }
}

/**
 * One channel's outputs on this server: the outputs themselves, the frames the channel sent here (for lag and
 * forged frames), its program instances (for confirmations and unconfirmed alerts), and the pages refused for
 * their token.
 */
import type { OutputView, RefusedOutputs } from '@onair/protocol';
import { FrameLog } from './frame-log.js';
import { byHealth, byId } from './output-order.js';
import type { OutputsSummary } from './remote-outputs.js';
import { OnAirWatch } from './on-air-watch.js';
import type { OutputState } from './output-state.js';

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

  /** In connection order. */
  views(): OutputView[] {
    return this.listed()
      .map((o) => o.view())
      .sort(byId);
  }

  /** The `max` least healthy, oldest first within a health. */
  worst(max: number): OutputView[] {
    return this.views().sort(byHealth).slice(0, max);
  }

  /** What this server shares of the channel's outputs with the other nodes (its `max` least healthy). */
  summary(max: number): OutputsSummary {
    const total = this.listed().length;
    const views = total > max ? this.worst(max) : this.views();
    const painted = this.watch.paintedKeys();
    return {
      channelId: this.channelId,
      views,
      total,
      refused: this.refused,
      programOutputs: this.programOutputs(),
      painted,
    };
  }

  refusedOne(address: string, now: number): void {
    this.refused = { count: (this.refused?.count ?? 0) + 1, lastAt: new Date(now).toISOString(), lastAddress: address };
  }

  empty(): boolean {
    return this.outputs.size === 0 && this.refused === null;
  }
}

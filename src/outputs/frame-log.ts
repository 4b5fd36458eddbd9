/**
 * The frames a channel recently sent to this server's sockets, oldest first: which frames an output can have
 * painted, and how long the oldest change an output has not painted yet has been out (its lag, docs/outputs.md).
 */
import { frameAt, frameRate, type FrameRate } from '../engine/index.js';

/** Enough for 1 s of a channel that changes every frame at 60 fps: an output further behind is lagging anyway. */
const KEPT = 64;

export class FrameLog {
  private frames: number[] = [];

  /** A frame published for the channel. Numbers only grow, but change scale with the frame rate: a smaller one restarts the log. */
  sent(frame: number): void {
    const last = this.frames[this.frames.length - 1];
    if (last !== undefined && frame <= last) {
      if (frame === last) return;
      this.frames = [];
    }
    this.frames.push(frame);
    if (this.frames.length > KEPT) this.frames.shift();
  }

  latest(): number | null {
    return this.frames[this.frames.length - 1] ?? null;
  }

  /** The first frame sent after `painted`, or null when none is known. */
  after(painted: number): number | null {
    for (const f of this.frames) if (f > painted) return f;
    return null;
  }
}

/** What a lag is measured against: the channel's last frame (as its engine here knows it) and rate, and the time. */
export interface LagBasis {
  channelFrame: number;
  fps: FrameRate;
  now: number;
}

/**
 * Frames since the first change after `painted` went out; 0 when the output painted the last one. When this server
 * did not see that change go out (the output reports before its channel's first frame here), the channel's last
 * frame stands in for it, which can only make the lag smaller.
 */
export function lagFrames(log: FrameLog, painted: number, basis: LagBasis): number {
  const latest = Math.max(log.latest() ?? 0, basis.channelFrame);
  if (painted >= latest) return 0;
  const missed = log.after(painted) ?? latest;
  return Math.max(0, frameAt(frameRate(basis.fps), basis.now) - missed);
}

/** A painted frame no frame sent here reaches: forged, or of another channel. */
export function isAhead(log: FrameLog, painted: number, channelFrame: number): boolean {
  return painted > Math.max(log.latest() ?? 0, channelFrame);
}

/**
 * When the browser has actually painted (docs/outputs.md): a drawing made in an animation frame is on screen once
 * that frame's rendering is done, which a message posted from the frame's callback waits for (it runs after the
 * rendering steps). Every REPORT_ALIVE_MS it asks for two display frames of its own, which measure the frame rate and
 * prove the page can still paint: a hidden, frozen or busy page gets no frames, so it says nothing.
 */
import { REPORT_ALIVE_MS } from '@onair/protocol';

export interface PaintWatch {
  /** A display frame ran (its timestamp): for the frame rate. */
  frame(time: number): void;
  /** Something was drawn in this display frame: `onPainted` runs once it is painted. */
  drew(): void;
  /** Display frames per second, as measured; 0 until known. */
  fps(): number;
}

/** Intervals kept for the rate (the median is taken: one late frame does not move it). */
const SAMPLES = 9;
/** Frames further apart than this were not consecutive (the loop had stopped). */
const CONSECUTIVE_MS = 250;

export function createPaintWatch(win: Window, onPainted: () => void): PaintWatch {
  const intervals: number[] = [];
  let lastFrame = -Infinity;
  let posted = false;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    posted = false;
    onPainted();
  };

  const watch: PaintWatch = {
    frame(time) {
      const gap = time - lastFrame;
      lastFrame = time;
      if (gap <= 0 || gap > CONSECUTIVE_MS) return;
      intervals.push(gap);
      if (intervals.length > SAMPLES) intervals.shift();
    },
    drew() {
      if (posted) return;
      posted = true;
      channel.port2.postMessage(null);
    },
    fps() {
      if (intervals.length === 0) return 0;
      const sorted = [...intervals].sort((a, b) => a - b);
      return Math.round(1000 / sorted[Math.floor(sorted.length / 2)]!);
    },
  };
  // One probe at a time: while the page gets no frames, they would otherwise pile up.
  let probing = false;
  setInterval(() => {
    if (probing) return;
    probing = true;
    win.requestAnimationFrame((t1) => {
      watch.frame(t1);
      win.requestAnimationFrame((t2) => {
        probing = false;
        watch.frame(t2);
        watch.drew();
      });
    });
  }, REPORT_ALIVE_MS);
  return watch;
}

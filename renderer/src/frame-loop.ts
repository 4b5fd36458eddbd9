/**
 * Drawing on the display's frames. Messages may arrive many times per display frame; they only mark the
 * page dirty, and the next animation frame draws the latest state once. The loop keeps running only
 * while something moves without messages (a running clock); an idle page costs nothing. While a host
 * hides the page, animation frames stop and nothing is drawn; the state still advances, so the first
 * frame after shows the latest.
 */

export interface FrameLoop {
  /** Asks for a drawing on the next animation frame (several asks in one frame draw once). */
  request(): void;
}

/** `onFrame` returns true to be called again on the next frame. */
export function createFrameLoop(win: Window, onFrame: (time: number) => boolean): FrameLoop {
  let scheduled = false;
  const frame = (time: number) => {
    scheduled = false;
    if (onFrame(time)) request();
  };
  function request(): void {
    if (scheduled) return;
    scheduled = true;
    win.requestAnimationFrame(frame);
  }
  return { request };
}

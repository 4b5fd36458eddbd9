import { describe, expect, it } from 'vitest';
import { createFrameLoop } from './frame-loop.js';
import { createFitQueue } from './text-box.js';

function fakeWindow() {
  const callbacks: FrameRequestCallback[] = [];
  const win = { requestAnimationFrame: (cb: FrameRequestCallback) => callbacks.push(cb) } as unknown as Window;
  const runFrame = (t: number) => callbacks.splice(0).forEach((cb) => cb(t));
  return { win, callbacks, runFrame };
}

describe('frame loop', () => {
  it('draws once per display frame however many messages asked for it', () => {
    const { win, callbacks, runFrame } = fakeWindow();
    let draws = 0;
    const loop = createFrameLoop(win, () => {
      draws += 1;
      return false;
    });
    loop.request();
    loop.request();
    loop.request();
    expect(callbacks).toHaveLength(1);
    runFrame(16);
    expect(draws).toBe(1);
    expect(callbacks).toHaveLength(0);
  });

  it('keeps asking for frames while something moves, and stops when it does not', () => {
    const { win, callbacks, runFrame } = fakeWindow();
    let moving = 3;
    const loop = createFrameLoop(win, () => (moving -= 1) > 0);
    loop.request();
    runFrame(1);
    runFrame(2);
    expect(callbacks).toHaveLength(1);
    runFrame(3);
    expect(callbacks).toHaveLength(0);
  });

  it('measures every queued text before writing any fit: one layout per pass', () => {
    const log: string[] = [];
    const queue = createFitQueue();
    for (const name of ['a', 'b']) {
      queue.add({
        read: () => (log.push(`read ${name}`), 10),
        apply: () => log.push(`write ${name}`),
      });
    }
    queue.flush();
    queue.flush();
    expect(log).toEqual(['read a', 'read b', 'write a', 'write b']);
  });
});

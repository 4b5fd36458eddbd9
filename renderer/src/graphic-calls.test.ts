import { describe, expect, it } from 'vitest';
import { createGraphicCalls, type CallPort } from './graphic-calls.js';
import type { HostCall } from './graphic-wire.js';

/** A host on the other end of a real MessageChannel that answers only when the test says so. */
function harness() {
  const channel = new MessageChannel();
  const received: HostCall[] = [];
  const host = channel.port2;
  host.onmessage = (event) => received.push(event.data as HostCall);
  const timers = new Set<{ fn: () => void; ms: number }>();
  const uncaught: string[] = [];
  const calls = createGraphicCalls({
    port: Promise.resolve(channel.port1 as unknown as CallPort),
    onUncaught: (message) => uncaught.push(message),
    later(fn, ms) {
      const timer = { fn, ms };
      timers.add(timer);
      return () => timers.delete(timer);
    },
  });
  const answer = (id: number, result?: unknown) => host.postMessage({ kind: 'result', id, result });
  const fail = (id: number, message: string) => host.postMessage({ kind: 'failed', id, message });
  /** Runs every pending timer, as if their time had come. */
  const expire = () => {
    for (const timer of [...timers]) {
      timers.delete(timer);
      timer.fn();
    }
  };
  const close = () => {
    calls.close();
    host.close();
  };
  return { calls, received, host, answer, fail, expire, uncaught, timers, close };
}

describe('graphic calls', () => {
  it('sends one call at a time, the next once the one before has answered', async () => {
    const h = harness();
    const load = h.calls.call('load', { url: 'x' }, 1000);
    const play = h.calls.call('playAction', {}, 1000);
    await expect.poll(() => h.received.length).toBe(1);
    expect(h.received[0]).toMatchObject({ method: 'load' });
    h.answer(h.received[0]!.id);
    expect(await load).toEqual({ ok: true, result: { statusCode: 200 } });
    await expect.poll(() => h.received.length).toBe(2);
    expect(h.received[1]).toMatchObject({ method: 'playAction', params: {} });
    h.answer(h.received[1]!.id, { statusCode: 200, currentStep: 0 });
    expect(await play).toEqual({ ok: true, result: { statusCode: 200, currentStep: 0 } });
    h.close();
  });

  it('gives up a call that never settles, moves on, and ignores its late answer', async () => {
    const h = harness();
    const stop = h.calls.call('stopAction', {}, 500);
    const dispose = h.calls.call('dispose', {}, 500);
    await expect.poll(() => h.received.length).toBe(1);
    expect([...h.timers].map((t) => t.ms)).toEqual([500]);
    h.expire();
    expect(await stop).toEqual({ ok: false, reason: 'timeout', message: 'stopAction did not settle within 500 ms' });
    await expect.poll(() => h.received.length).toBe(2);
    h.answer(h.received[0]!.id, { statusCode: 500 });
    h.answer(h.received[1]!.id);
    expect(await dispose).toEqual({ ok: true, result: { statusCode: 200 } });
    h.close();
  });

  it('ends a call with what the graphic threw, and passes on errors raised outside calls', async () => {
    const h = harness();
    const load = h.calls.call('load', {}, 1000);
    await expect.poll(() => h.received.length).toBe(1);
    h.host.postMessage({ kind: 'uncaught', message: 'tick failed' });
    h.fail(h.received[0]!.id, 'no fonts');
    expect(await load).toEqual({ ok: false, reason: 'failed', message: 'no fonts' });
    expect(h.uncaught).toEqual(['tick failed']);
    h.close();
  });

  it('ends queued and waiting calls as closed when closed', async () => {
    const h = harness();
    const load = h.calls.call('load', {}, 1000);
    const play = h.calls.call('playAction', {}, 1000);
    await expect.poll(() => h.received.length).toBe(1);
    h.close();
    expect(await load).toMatchObject({ ok: false, reason: 'closed' });
    expect(await play).toMatchObject({ ok: false, reason: 'closed' });
  });
});

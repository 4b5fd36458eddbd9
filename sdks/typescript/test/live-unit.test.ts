/**
 * The live client's protocol logic against a scripted socket (no server): what a real server rarely does on
 * demand — a gap in the frame sequence, a refused resync, a close code — is played here message by message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveChannel, type LiveCloseInfo, type SnapshotMessage, type WebSocketConstructor } from '../src/index.js';
import { applyFrame, reconnectDelay, stateFromSnapshot } from '../src/generated/protocol.js';
import { DEFAULT_RECONNECT } from '../src/live/reconnect.js';

type Listener = (event: never) => void;

/** A WebSocket whose server side is the test: it records what the client sends and plays what the server says. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  protocol = '';
  readonly sent: unknown[] = [];
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    FakeSocket.made.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.fire('close', { code, reason });
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  // The server's side.
  accept(): void {
    this.readyState = 1;
    this.fire('open', {});
  }

  say(message: object): void {
    this.fire('message', { data: JSON.stringify(message) });
  }

  drop(code = 1006, reason = ''): void {
    this.readyState = 3;
    this.fire('close', { code, reason });
  }

  private fire(type: string, event: object): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (e: object) => void)(event);
  }
}

const WS = FakeSocket as unknown as WebSocketConstructor;

function snapshot(frame: number, inputs: Record<string, number | string> = {}): SnapshotMessage {
  return {
    type: 'snapshot',
    channelId: 'ch_1',
    frame,
    serverTime: 1_000_000 + frame,
    fps: 50,
    width: 1920,
    height: 1080,
    program: [],
    preview: [],
    scenes: [],
    inputs,
    clocks: {},
  };
}

async function connected(options: Partial<ConstructorParameters<typeof LiveChannel>[0]> = {}) {
  FakeSocket.made = [];
  const live = new LiveChannel({ channelId: 'ch_1', apiKey: 'onair_sk_k', WebSocket: WS, ...options });
  await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(1), { timeout: 5_000 });
  const socket = FakeSocket.made[0]!;
  socket.accept();
  socket.say(snapshot(10, { scoreA: 0 }));
  return { live, socket };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('connecting', () => {
  it('offers the key as the bearer subprotocol with a standard WebSocket, at /v1/ws?channel=', async () => {
    const { live, socket } = await connected({ baseUrl: 'https://onair.test/v1/' });
    // With a key, every scene of the channel by default.
    expect(socket.url).toBe('wss://onair.test/v1/ws?channel=ch_1&scenes=all');
    expect(socket.protocols).toEqual(['onair.v1', 'bearer.onair_sk_k']);
    expect(live.synced).toBe(true);
    expect(live.state?.inputs).toEqual({ scoreA: 0 });
    live.close();
  });

  it('puts an output token in the query and offers no key', async () => {
    const { live, socket } = await connected({ apiKey: undefined, outputToken: 'TOKEN' });
    // An output token gets the scenes on the buses only.
    expect(socket.url).toBe('ws://localhost:8080/v1/ws?channel=ch_1&scenes=buses&token=TOKEN');
    expect(socket.protocols).toEqual(['onair.v1']);
    live.close();
  });

  it('asks for the scenes on the buses only when told to', async () => {
    const { live, socket } = await connected({ scenes: 'buses' });
    expect(new URL(socket.url).searchParams.get('scenes')).toBe('buses');
    live.close();
  });

  it('refuses to start without a key or token', () => {
    vi.stubEnv('ONAIR_API_KEY', '');
    expect(() => new LiveChannel({ channelId: 'ch_1', WebSocket: WS })).toThrow(TypeError);
    vi.unstubAllEnvs();
  });
});

describe('frames and resync', () => {
  it('applies frames that follow, and on a gap asks for a resync and ignores frames until the snapshot', async () => {
    const { live, socket } = await connected();
    const states: number[] = [];
    live.on('state', (s) => states.push(s.frame));
    socket.say({ type: 'frame', channelId: 'ch_1', frame: 11, prev: 10, serverTime: 1, inputs: { scoreA: 1 } });
    expect(live.state).toMatchObject({ frame: 11, inputs: { scoreA: 1 } });

    socket.say({ type: 'frame', channelId: 'ch_1', frame: 14, prev: 13, serverTime: 2, inputs: { scoreA: 4 } });
    expect(socket.sent).toEqual([{ op: 'resync' }]);
    expect(live.synced).toBe(false);
    expect(live.state?.inputs.scoreA).toBe(1);
    socket.say({ type: 'frame', channelId: 'ch_1', frame: 15, prev: 14, serverTime: 3, inputs: { scoreA: 5 } });
    expect(live.state?.inputs.scoreA).toBe(1);

    socket.say(snapshot(15, { scoreA: 5 }));
    expect(live.synced).toBe(true);
    socket.say({ type: 'frame', channelId: 'ch_1', frame: 16, prev: 15, serverTime: 4, inputs: { scoreA: 6 } });
    expect(live.state?.inputs.scoreA).toBe(6);
    expect(states).toEqual([11, 15, 16]);
    live.close();
  });

  it('asks again a second later when the server refuses a resync (rate_limited, id null)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { live, socket } = await connected();
    const errors: Error[] = [];
    live.on('error', (e) => errors.push(e));
    socket.say({ type: 'frame', channelId: 'ch_1', frame: 20, prev: 19, serverTime: 1 });
    socket.say({ type: 'error', id: null, code: 'rate_limited', detail: 'Too many resyncs' });
    expect(errors[0]).toMatchObject({ code: 'rate_limited' });
    expect(socket.sent).toEqual([{ op: 'resync' }]);
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toEqual([{ op: 'resync' }, { op: 'resync' }]);
    live.close();
  });

  it('emits triggers of applied frames once, and never for a snapshot', async () => {
    const { live, socket } = await connected();
    const names: string[] = [];
    live.on('trigger', (t) => names.push(t.name));
    socket.say({
      type: 'frame',
      channelId: 'ch_1',
      frame: 11,
      prev: 10,
      serverTime: 1,
      triggers: [{ name: 'flashScoreA', sceneId: 'sc_1', at: 1 }],
    });
    socket.say(snapshot(11));
    expect(names).toEqual(['flashScoreA']);
    live.close();
  });
});

describe('ops', () => {
  it('sends ops with ids and settles each by its own ack or error', async () => {
    const { live, socket } = await connected();
    const a = live.patch({ scoreA: 1 });
    const b = live.clock('gameClock', 'set', 5000);
    const c = live.take(20);
    expect(socket.sent).toEqual([
      { op: 'patch', id: '1', inputs: { scoreA: 1 } },
      { op: 'clock', id: '2', name: 'gameClock', action: 'set', ms: 5000 },
      { op: 'take', id: '3', layer: 20 },
    ]);
    socket.say({ type: 'error', id: '3', code: 'preview_empty', detail: 'Nothing is cued.' });
    socket.say({ type: 'ack', id: '2', frame: 12, clock: { running: false, ms: 5000, at: 1 } });
    socket.say({ type: 'ack', id: '1', frame: 11 });
    await expect(a).resolves.toEqual({ frame: 11 });
    await expect(b).resolves.toEqual({ frame: 12, clock: { running: false, ms: 5000, at: 1 } });
    await expect(c).rejects.toMatchObject({
      name: 'OnairApiError',
      code: 'preview_empty',
      status: 409,
      detail: 'Nothing is cued.',
    });
    live.close();
  });

  it('rejects ops sent before a drop with disconnected, and sends queued ones after the reconnect', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { live, socket } = await connected();
    const sent = live.patch({ scoreA: 1 });
    socket.drop();
    await expect(sent).rejects.toMatchObject({ name: 'OnairTransportError', code: 'disconnected' });
    const queued = live.patch({ scoreA: 2 });
    vi.advanceTimersByTime(300); // the first reconnect waits 125–250 ms
    await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(2), { timeout: 5_000 });
    const again = FakeSocket.made[1]!;
    expect(again.sent).toEqual([]);
    again.accept();
    expect(again.sent).toEqual([{ op: 'patch', id: '2', inputs: { scoreA: 2 } }]);
    again.say({ type: 'ack', id: '2', frame: 30 });
    await expect(queued).resolves.toEqual({ frame: 30 });
    expect(socket.sent).toEqual([{ op: 'patch', id: '1', inputs: { scoreA: 1 } }]);
    live.close();
  });
});

describe('closing', () => {
  it('does not reconnect after a 4000–4099 close, and says why', async () => {
    const { live, socket } = await connected();
    const closes: LiveCloseInfo[] = [];
    live.on('close', (c) => closes.push(c));
    socket.drop(4009, 'output token rotated');
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ code: 4009, reconnecting: false });
    expect(closes[0]!.error).toMatchObject({ code: 'unauthorized' });
    expect(live.status).toBe('closed');
    await expect(live.ready()).rejects.toMatchObject({ code: 'unauthorized' });
    await new Promise((r) => setTimeout(r, 400));
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('does not reconnect with reconnect: false', async () => {
    const { live, socket } = await connected({ reconnect: false });
    socket.drop(1001, 'server restarting');
    expect(live.status).toBe('closed');
    await expect(live.patch({ a: 1 })).rejects.toMatchObject({ code: 'disconnected' });
  });

  it('gives up after maxAttempts connections in a row fail', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { live, socket } = await connected({ reconnect: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 10 } });
    const closes: LiveCloseInfo[] = [];
    live.on('close', (c) => closes.push(c));
    socket.drop();
    for (let i = 2; i <= 3; i++) {
      vi.advanceTimersByTime(20);
      await vi.waitFor(() => expect(FakeSocket.made).toHaveLength(i), { timeout: 5_000 });
      FakeSocket.made[i - 1]!.drop();
    }
    expect(closes.map((c) => c.reconnecting)).toEqual([true, true, false]);
    expect(closes[2]!.error).toMatchObject({ name: 'OnairTransportError', code: 'network' });
  });
});

describe('state steps and backoff', () => {
  it('merges a frame into a new state, leaving absent keys and the old state alone', () => {
    const before = stateFromSnapshot({
      ...snapshot(1, { a: 1, b: 2 }),
      program: [
        { sceneId: 'sc_2', layer: 20, since: 't', itemId: null, values: {} },
        { sceneId: 'sc_1', layer: 10, since: 't', itemId: null, values: {} },
      ],
      scenes: [{ id: 'sc_1', name: 'One', definition: {} as never }],
      clocks: { c: { running: false, ms: 0, at: 0 } },
    });
    expect(before.program.map((p) => p.layer)).toEqual([10, 20]);
    const after = applyFrame(before, {
      type: 'frame',
      channelId: 'ch_1',
      frame: 2,
      prev: 1,
      serverTime: 5,
      inputs: { a: 3 },
      removedInputs: ['b'],
      removedScenes: ['sc_1'],
      fps: 25,
    });
    expect(after).not.toBe('gap');
    expect(after).toMatchObject({ frame: 2, inputs: { a: 3 }, scenes: {}, fps: 25, clocks: before.clocks });
    expect(before.inputs).toEqual({ a: 1, b: 2 });
    expect(applyFrame(before, { type: 'frame', channelId: 'ch_1', frame: 3, prev: 2, serverTime: 6 })).toBe('gap');
  });

  it('backs off exponentially with equal jitter, capped, and sooner after 1001', () => {
    expect(reconnectDelay(0, 1006, DEFAULT_RECONNECT, () => 0)).toBe(125);
    expect(reconnectDelay(0, 1006, DEFAULT_RECONNECT, () => 1)).toBe(250);
    expect(reconnectDelay(3, 1006, DEFAULT_RECONNECT, () => 1)).toBe(2000);
    expect(reconnectDelay(10, 1006, DEFAULT_RECONNECT, () => 1)).toBe(5000);
    expect(reconnectDelay(10, 1006, DEFAULT_RECONNECT, () => 0)).toBe(2500);
    expect(reconnectDelay(0, 1001, DEFAULT_RECONNECT, () => 1)).toBe(100);
  });
});

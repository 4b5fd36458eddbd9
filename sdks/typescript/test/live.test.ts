/**
 * The live WebSocket client against a real server: state from snapshot and frames, ops and their acks, error
 * acks, and what happens when the line drops (through a TCP proxy the test cuts), goes silent, or is closed for
 * good by the server.
 */
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LiveChannel,
  OnairApiError,
  OnairTransportError,
  type LiveCloseInfo,
  type OnairClient,
  type WebSocketConstructor,
} from '../src/index.js';
import type { FiredTrigger } from '../src/index.js';
import { clientFor, delay, eventually, scoreboardChannel, startServer, TcpProxy, type SdkServer } from './helpers.js';

let sdk: SdkServer;
let client: OnairClient;
const open: LiveChannel[] = [];
const proxies: TcpProxy[] = [];

/** A live client closed after the test, whatever happens. */
function track(live: LiveChannel): LiveChannel {
  open.push(live);
  return live;
}

beforeAll(async () => {
  sdk = await startServer();
  client = clientFor(sdk);
});

afterEach(async () => {
  for (const live of open.splice(0)) live.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

afterAll(async () => {
  await sdk?.dispose();
});

async function proxy(): Promise<TcpProxy> {
  const p = await TcpProxy.start(sdk.server.port);
  proxies.push(p);
  return p;
}

describe('state', () => {
  it('subscribes, and a REST patch arrives in the state within a second', async () => {
    const { channel, scene } = await scoreboardChannel(client, 'Live state');
    const live = track(client.live(channel.id));
    const first = await live.ready(15_000);
    expect(live.status).toBe('open');
    expect(live.synced).toBe(true);
    expect(first.channelId).toBe(channel.id);
    expect(first.scenes[scene.id]?.name).toBe('Score');
    expect(first.inputs).toHaveProperty('scoreA');
    expect(first.clocks).toHaveProperty('gameClock');

    const frames: number[] = [];
    live.on('frame', (f) => frames.push(f.frame));
    const started = Date.now();
    const { frame } = await client.channels.patchInputs(channel.id, { scoreA: 7, home: 'LEEDS' });
    // The bound is the second the test is about; the wait itself may be longer, so that a slow arrival fails here.
    const state = await live.waitFor((s) => s.inputs.scoreA === 7, 10_000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(state.inputs.home).toBe('LEEDS');
    expect(frames).toContain(frame);
    expect(live.state).toBe(state);
    expect(first.inputs.scoreA).not.toBe(7); // states are replaced, never mutated
  });

  it('authenticates with the bearer subprotocol too (what a browser does)', async () => {
    const { channel } = await scoreboardChannel(client, 'Live subprotocol');
    const live = track(client.live(channel.id, { keyTransport: 'subprotocol' }));
    await live.ready(15_000);
    await client.channels.patchInputs(channel.id, { scoreB: 2 });
    await live.waitFor((s) => s.inputs.scoreB === 2, 10_000);
  });

  it('follows a channel read-only with its output token: ops are refused with forbidden', async () => {
    const { channel } = await scoreboardChannel(client, 'Live output token');
    const token = new URL(channel.outputUrl).searchParams.get('token')!;
    const live = track(new LiveChannel({ baseUrl: sdk.env.ONAIR_TEST_URL, channelId: channel.id, outputToken: token }));
    await live.ready(15_000);
    await expect(live.patch({ scoreA: 1 })).rejects.toMatchObject({ name: 'OnairApiError', code: 'forbidden' });
  });
});

describe('ops', () => {
  it('sends preview and take, each resolved by its ack; the state shows the scene on program', async () => {
    const { channel, scene } = await scoreboardChannel(client, 'Live take');
    const live = track(client.live(channel.id));
    await live.ready(15_000);
    const cued = await live.preview(scene.id);
    expect(cued.frame).toBeGreaterThan(0);
    const taken = await live.take();
    expect(taken.frame).toBeGreaterThan(cued.frame);
    const state = await live.waitFor((s) => s.frame >= taken.frame, 10_000);
    expect(state.program.map((p) => p.sceneId)).toEqual([scene.id]);
    expect(state.preview).toEqual([]);
    expect((await client.channels.getState(channel.id)).program[0]?.sceneId).toBe(scene.id);
  });

  it('patches, drives a clock, fires a trigger, cuts and clears', async () => {
    const { channel, scene } = await scoreboardChannel(client, 'Live ops');
    const live = track(client.live(channel.id));
    await live.ready(15_000);
    const patched = await live.patch({ scoreA: 2, away: 'YORK' });
    expect((await live.waitFor((s) => s.frame >= patched.frame, 10_000)).inputs).toMatchObject({
      scoreA: 2,
      away: 'YORK',
    });
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(2);

    const set = await live.clock('gameClock', 'set', 90_000);
    expect(set.clock).toMatchObject({ running: false, ms: 90_000 });
    const started = await live.clock('gameClock', 'start');
    expect(started.clock?.running).toBe(true);
    expect((await live.waitFor((s) => s.clocks.gameClock?.running === true, 10_000)).clocks.gameClock?.ms).toBe(90_000);

    await live.program(scene.id);
    const fired: FiredTrigger[] = [];
    live.on('trigger', (t) => fired.push(t));
    const trigger = await live.trigger('flashScoreA');
    await eventually(() => fired.length > 0, 10_000, 'the trigger event');
    expect(fired[0]).toMatchObject({ name: 'flashScoreA', sceneId: scene.id });
    expect(live.state!.frame).toBeGreaterThanOrEqual(trigger.frame);

    const cleared = await live.clear({ sceneId: scene.id });
    expect((await live.waitFor((s) => s.frame >= cleared.frame, 10_000)).program).toEqual([]);
  });

  it('rejects an op answered with an error, with its code', async () => {
    const { channel, scene } = await scoreboardChannel(client, 'Live errors');
    const live = track(client.live(channel.id));
    await live.ready(15_000);
    const unknown = await live.patch({ scorA: 1 }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OnairApiError);
    expect(unknown).toMatchObject({ code: 'unknown_input', status: 400 });
    expect((unknown as OnairApiError).detail).toContain('scoreA');
    await expect(live.take()).rejects.toMatchObject({ code: 'preview_empty', status: 409 });
    await expect(live.trigger('nope')).rejects.toMatchObject({ code: 'unknown_trigger', status: 404 });
    await expect(live.clear({ layer: 1, sceneId: scene.id })).rejects.toMatchObject({ code: 'invalid_request' });
    // The connection stays up and keeps working.
    await expect(live.patch({ scoreA: 1 })).resolves.toMatchObject({ frame: expect.any(Number) as number });
    expect(live.status).toBe('open');
  });

  it('queues an op made before the connection opens and sends it once open', async () => {
    const { channel } = await scoreboardChannel(client, 'Live queued');
    const live = track(client.live(channel.id, { connect: false }));
    expect(live.status).toBe('idle');
    const ack = await live.patch({ scoreA: 11 });
    expect(ack.frame).toBeGreaterThan(0);
    expect((await client.channels.getState(channel.id)).inputs.scoreA).toBe(11);
  });

  it('rejects an op with a timeout error when no ack comes within ackTimeoutMs', async () => {
    const { channel } = await scoreboardChannel(client, 'Live ack timeout');
    const p = await proxy();
    const live = track(client.live(channel.id, { baseUrl: p.url, ackTimeoutMs: 300 }));
    await live.ready(15_000);
    p.mute('up');
    const error = await live.patch({ scoreA: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairTransportError);
    expect((error as OnairTransportError).code).toBe('timeout');
    expect((await client.channels.getState(channel.id)).inputs.scoreA).not.toBe(1);
  });
});

describe('reconnect', () => {
  it('reconnects after the line drops and resyncs state changed meanwhile', async () => {
    const { channel } = await scoreboardChannel(client, 'Live reconnect');
    const p = await proxy();
    const live = track(client.live(channel.id, { baseUrl: p.url }));
    await live.ready(15_000);
    const closes: LiveCloseInfo[] = [];
    let snapshots = 0;
    live.on('close', (info) => closes.push(info));
    live.on('snapshot', () => snapshots++);

    p.refuse = true;
    p.cut();
    await eventually(() => closes.length > 0, 10_000, 'the close event');
    expect(closes[0]).toMatchObject({ reconnecting: true });
    expect(live.synced).toBe(false);
    expect(['reconnecting', 'connecting']).toContain(live.status);

    // Changed while the client is away: only the new connection's snapshot can bring it.
    await client.channels.patchInputs(channel.id, { scoreA: 9, home: 'AWAY DAYS' });
    await delay(300);
    expect(live.state?.inputs.scoreA).not.toBe(9);
    p.refuse = false;
    const state = await live.waitFor((s) => s.inputs.scoreA === 9, 15_000);
    expect(state.inputs.home).toBe('AWAY DAYS');
    expect(snapshots).toBeGreaterThanOrEqual(1);
    expect(live.status).toBe('open');
    expect(p.accepted).toBeGreaterThanOrEqual(2);

    // And it keeps following live changes afterwards.
    await client.channels.patchInputs(channel.id, { scoreA: 10 });
    await live.waitFor((s) => s.inputs.scoreA === 10, 10_000);
  });

  it('rejects an op in flight when the line drops (never resent), then works again after reconnecting', async () => {
    const { channel } = await scoreboardChannel(client, 'Live in flight');
    const p = await proxy();
    const live = track(client.live(channel.id, { baseUrl: p.url, ackTimeoutMs: 5000 }));
    await live.ready(15_000);
    p.mute('up'); // the op leaves the client but never reaches the server
    const inFlight = live.patch({ scoreA: 21 });
    await delay(100);
    p.cut();
    const error = await inFlight.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairTransportError);
    expect((error as OnairTransportError).code).toBe('disconnected');

    await live.waitFor(() => true, 15_000);
    const ack = await live.patch({ scoreA: 22 });
    expect((await live.waitFor((s) => s.frame >= ack.frame, 10_000)).inputs.scoreA).toBe(22);
    // The dropped op was not re-sent behind the caller's back.
    const events = [];
    for await (const e of client.events.listAll({ channelId: channel.id, type: 'channel.bind_updated' }))
      events.push(e);
    expect(events.map((e) => (e.data.inputs as Record<string, unknown>).scoreA)).toEqual([22]);
  });

  it('treats a silent line as dead after heartbeatTimeoutMs and reconnects', async () => {
    const { channel } = await scoreboardChannel(client, 'Live silent');
    const p = await proxy();
    const live = track(client.live(channel.id, { baseUrl: p.url, heartbeatTimeoutMs: 1000 }));
    await live.ready(15_000);
    const closes: LiveCloseInfo[] = [];
    live.on('close', (info) => closes.push(info));
    p.mute('down'); // nothing from the server arrives any more, and nothing says so
    await client.channels.patchInputs(channel.id, { scoreA: 31 });
    // Noticed after 1 s of silence; the rest is room for a busy machine.
    await eventually(() => closes.length > 0, 10_000, 'the dead line to be noticed');
    expect(closes[0]).toMatchObject({ code: 1006, reconnecting: true });
    expect(closes[0]!.reason).toContain('nothing heard');
    const state = await live.waitFor((s) => s.inputs.scoreA === 31, 15_000);
    expect(state.channelId).toBe(channel.id);
  });

  it('stops for good when the key is revoked (close 4001): no reconnect, ops rejected', async () => {
    const { channel } = await scoreboardChannel(client, 'Live revoked');
    const key = await client.keys.create({ name: 'live reader', permissions: ['channels:read', 'inputs:write'] });
    const p = await proxy();
    const live = track(client.live(channel.id, { apiKey: key.secret, baseUrl: p.url }));
    await live.ready(15_000);
    const closes: LiveCloseInfo[] = [];
    live.on('close', (info) => closes.push(info));
    await client.keys.revoke(key.id);
    await eventually(() => closes.length > 0, 10_000, 'the 4001 close');
    expect(closes[0]).toMatchObject({ code: 4001, reconnecting: false });
    expect(closes[0]!.error).toBeInstanceOf(OnairApiError);
    expect(live.status).toBe('closed');
    await expect(live.patch({ scoreA: 1 })).rejects.toMatchObject({ code: 'unauthorized' });
    await delay(600);
    expect(p.accepted).toBe(1);
  });

  it('stops for good when the upgrade is refused with 401 (a wrong key), with the server’s problem', async () => {
    const { channel } = await scoreboardChannel(client, 'Live refused');
    const live = track(client.live(channel.id, { apiKey: 'onair_sk_NotAKeyNotAKeyNotAKeyNotAKey0000' }));
    const error = await live.ready(15_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairApiError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((error as OnairApiError).requestId).toBeTruthy();
    expect(live.status).toBe('closed');
  });

  it('stops when the channel is deleted (close 4010)', async () => {
    const { channel } = await scoreboardChannel(client, 'Live deleted');
    const live = track(client.live(channel.id));
    await live.ready(15_000);
    const closed = new Promise<LiveCloseInfo>((resolve) => live.on('close', resolve));
    await client.channels.delete(channel.id);
    expect(await closed).toMatchObject({ code: 4010, reconnecting: false });
    expect((await closed).error).toMatchObject({ code: 'not_found' });
  });

  it('close() rejects ops still waiting and never reconnects', async () => {
    const { channel } = await scoreboardChannel(client, 'Live close');
    const p = await proxy();
    const live = track(client.live(channel.id, { baseUrl: p.url }));
    await live.ready(15_000);
    p.mute('up');
    const waiting = live.patch({ scoreA: 1 });
    const closes: LiveCloseInfo[] = [];
    live.on('close', (info) => closes.push(info));
    live.close();
    await expect(waiting).rejects.toMatchObject({ name: 'OnairTransportError', code: 'aborted' });
    expect(closes).toEqual([{ code: 1000, reason: 'closed by the client', reconnecting: false }]);
    expect(live.status).toBe('closed');
    await delay(500);
    expect(p.accepted).toBe(1);
    await expect(live.patch({ scoreA: 2 })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('uses the WebSocket constructor it is given', async () => {
    const { channel } = await scoreboardChannel(client, 'Live given WebSocket');
    let made = 0;
    class Counting extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        made++;
      }
    }
    const live = track(client.live(channel.id, { WebSocket: Counting as unknown as WebSocketConstructor }));
    await live.ready(15_000);
    expect(made).toBe(1);
  });
});

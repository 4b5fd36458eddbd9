/**
 * The frame clock seen from outside (docs/api.md, "Channels" and "Real-time WebSocket"): a PATCH is answered with the
 * frame that renders it, renderers get that frame, changes made within one tick travel as one frame, idle ticks send
 * nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, getState, patchInputs, type Api } from './helpers/api.js';
import { HoldableTime } from './helpers/holdable-time.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { ackedFrame, isFrame, RenderClient, type FrameMessage } from './helpers/ws-client.js';

let server: TestServer;
let call: Api;
let time: HoldableTime;
let channelId: string;
let token: string;
const clients: RenderClient[] = [];

async function renderer(auth: { token?: string; key?: string } = { token }): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

beforeEach(async () => {
  time = new HoldableTime();
  server = await startTestServer({ time });
  call = api(server.url, server.key);
  ({ channelId, token } = await createChannelWithScoreboard(call));
});

afterEach(async () => {
  time.release();
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

const framesNumbered = (client: RenderClient, frame: number) =>
  client.messages.filter((m): m is FrameMessage => isFrame(m) && m.frame === frame);

describe('PATCH → frame', () => {
  it('sends renderers a frame with the new value, numbered as in the PATCH response', async () => {
    const client = await renderer();
    const snapshotFrame = client.mirror!.frame;

    const result = await patchInputs(call, channelId, { scoreA: 3, home: 'LIONS' });

    expect(result).toMatchObject({ channelId, inputs: { scoreA: 3, home: 'LIONS' } });
    const frame = await client.next<FrameMessage>((m) => isFrame(m) && m.frame === result.frame);
    expect(frame.inputs).toEqual({ scoreA: 3, home: 'LIONS' });
    expect(frame.prev).toBe(snapshotFrame);
    expect(frame.frame).toBeGreaterThan(snapshotFrame);
    expect((await getState(call, channelId)).frame).toBe(result.frame);
  });

  it('applies two REST patches sent in the same tick as one frame, both answered with its number', async () => {
    const client = await renderer();
    const since = client.mark();

    // Ticks wait while both patches reach the channel's queue, whatever the machine's speed; then one tick runs.
    time.hold();
    const answers = Promise.all([
      patchInputs(call, channelId, { scoreA: 1, home: 'H1' }),
      patchInputs(call, channelId, { scoreA: 2, away: 'A2' }),
    ]);
    await expect.poll(() => server.handle.engine.queuedOps(channelId), { timeout: 10_000 }).toBe(2);
    time.release();
    const [first, second] = await answers;

    expect(second.frame).toBe(first.frame);
    await client.next((m) => isFrame(m) && m.frame === first.frame, { since });
    const frames = client.messages.slice(since).filter(isFrame);
    expect(frames).toHaveLength(1);
    // Arrival order between two connections is not ours to know; the winner must be what the state says.
    const state = await getState(call, channelId);
    expect(frames[0]!.inputs).toEqual({ scoreA: state.inputs.scoreA, home: 'H1', away: 'A2' });
    expect([1, 2]).toContain(state.inputs.scoreA);
  });

  it('applies two WebSocket patches sent together as one frame, the later value winning', async () => {
    const watcher = await renderer();
    const operator = await renderer({ key: server.key });
    const since = watcher.mark();

    operator.send({ op: 'patch', id: 'one', inputs: { scoreA: 1, period: 2 } });
    operator.send({ op: 'patch', id: 'two', inputs: { scoreA: 2, scoreB: 5 } });

    const one = await operator.reply('one');
    const two = await operator.reply('two');
    const frameNo = ackedFrame(one);
    expect(ackedFrame(two)).toBe(frameNo);
    const frame = await watcher.next<FrameMessage>((m) => isFrame(m) && m.frame === frameNo, { since });
    expect(frame.inputs).toEqual({ scoreA: 2, period: 2, scoreB: 5 });
    expect(watcher.messages.slice(since).filter(isFrame)).toHaveLength(1);
    expect((await getState(call, channelId)).inputs).toMatchObject({ scoreA: 2, scoreB: 5, period: 2 });
  });

  it('sends nothing on idle ticks', async () => {
    const client = await renderer();
    const result = await patchInputs(call, channelId, { scoreB: 4 });
    await client.next((m) => isFrame(m) && m.frame === result.frame);

    // 300 ms is 18 ticks at 60 fps: all idle, so not a single frame (or any other channel message) may arrive.
    expect(await client.collectFor(300)).toEqual([]);
    expect(framesNumbered(client, result.frame)).toHaveLength(1);
  });

  it('numbers consecutive changes in increasing frames, each frame naming the previous one', async () => {
    const client = await renderer();
    const results = [];
    for (const scoreA of [1, 2, 3]) results.push(await patchInputs(call, channelId, { scoreA }));

    const last = results[results.length - 1]!;
    await client.next((m) => isFrame(m) && m.frame === last.frame);
    const frames = client.messages.filter(isFrame);
    expect(frames.map((f) => f.frame)).toEqual(results.map((r) => r.frame));
    expect(frames.map((f) => f.inputs?.scoreA)).toEqual([1, 2, 3]);
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.prev).toBe(frames[i - 1]!.frame);
    expect(client.mirror!.inputs.scoreA).toBe(3);
  });
});

describe('clocks and triggers → frame', () => {
  it('a clock op is answered with its state, which renderers get in the frame of the same number', async () => {
    const client = await renderer();
    const res = await call<{ frame: number; clock: { running: boolean; ms: number; at: number } }>(
      'POST',
      `/v1/channels/${channelId}/clocks/gameClock`,
      { action: 'start' },
    );
    expect(res.status).toBe(200);
    expect(res.body.clock).toMatchObject({ running: true, ms: 720_000 });
    const frame = await client.next<FrameMessage>((m) => isFrame(m) && m.frame === res.body.frame);
    expect(frame.clocks).toEqual({ gameClock: res.body.clock });
    expect(client.mirror!.clocks.gameClock).toEqual(res.body.clock);
    expect((await getState(call, channelId)).clocks.gameClock).toEqual(res.body.clock);
  });

  it('a trigger bound to an input fires in the frame that changes it; firing one by name does too', async () => {
    const client = await renderer();
    const result = await patchInputs(call, channelId, { scoreA: 1 });
    const frame = await client.next<FrameMessage>((m) => isFrame(m) && m.frame === result.frame);
    expect(frame.triggers).toEqual([
      { name: 'flashScoreA', sceneId: expect.any(String) as string, at: expect.any(Number) as number },
    ]);

    const fired = await call<{ frame: number }>('POST', `/v1/channels/${channelId}/triggers/flashScoreB`);
    expect(fired.status).toBe(200);
    await client.next((m) => isFrame(m) && m.frame === fired.body.frame);
    expect(client.fired.map((t) => t.name)).toEqual(['flashScoreA', 'flashScoreB']);
    const unknown = await call<{ code: string }>('POST', `/v1/channels/${channelId}/triggers/flashScoreC`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'unknown_trigger']);
  });
});

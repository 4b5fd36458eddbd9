/**
 * Take at a time (docs/rundowns.md): the server schedules an op in frames and applies it in the frame that holds the
 * time, whatever a browser does; it survives a restart; it is listed and cancellable; a time in the past is refused.
 * Also the socket ops of a rundown and undo, which run the same operations as REST.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type Channel, type Scene } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, type FrameMessage } from './helpers/ws-client.js';

interface Scheduled {
  id: string;
  at: string;
  frame: number;
  op: Record<string, unknown>;
  actor: { type: string };
}

let server: TestServer;
let call: Api;
let channelId: string;
let token: string;
let score: Scene;

beforeEach(async () => {
  server = await startTestServer();
  call = api(() => server.url, server.key);
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Timed', fps: 25 }), 201);
  channelId = channel.id;
  token = new URL(channel.outputUrl).searchParams.get('token')!;
  score = expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Score', template: 'scoreboard' }),
    201,
  );
  expectStatus(await call('POST', `/v1/channels/${channelId}/preview`, { sceneId: score.id }), 200);
});

afterEach(async () => {
  await server.dispose();
});

const path = (rest: string) => `/v1/channels/${channelId}/${rest}`;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The frame a renderer first sees the score on program in. */
async function takenFrame(renderer: RenderClient): Promise<number> {
  const frame = await renderer.next<FrameMessage>(
    (m) => m.type === 'frame' && (m.program ?? []).some((e) => e.sceneId === score.id),
    { timeoutMs: 30_000 },
  );
  return frame.frame;
}

it('takes in the frame that holds the time (±1), lists it until then, and answers who scheduled it', async () => {
  const renderer = await RenderClient.connect(server.url, channelId, { token });
  await renderer.next((m) => m.type === 'snapshot');
  const scheduled = expectStatus(
    await call<Scheduled>('POST', path('schedule'), { at: inMs(2500), op: { kind: 'take' } }),
    201,
  );
  expect(scheduled).toMatchObject({ op: { kind: 'take' }, actor: { type: 'key' } });
  const list = expectStatus(await call<{ data: Scheduled[] }>('GET', path('schedule')), 200);
  expect(list.data.map((s) => s.id)).toEqual([scheduled.id]);
  expect(Math.abs((await takenFrame(renderer)) - scheduled.frame)).toBeLessThanOrEqual(1);
  expect((await getState(call, channelId)).program.map((e) => e.sceneId)).toEqual([score.id]);
  await expect.poll(async () => (await call<{ data: Scheduled[] }>('GET', path('schedule'))).body.data).toEqual([]);
  renderer.close();
}, 60_000);

it('refuses a time in the past or an unknown scene, and cancels what is scheduled', async () => {
  expectProblem(
    await call('POST', path('schedule'), { at: inMs(-5000), op: { kind: 'take' } }),
    400,
    'invalid_request',
  );
  expectProblem(
    await call('POST', path('schedule'), { at: inMs(5000), op: { kind: 'program', sceneId: 'sc_nope' } }),
    404,
    'not_found',
  );
  const scheduled = expectStatus(
    await call<Scheduled>('POST', path('schedule'), { at: inMs(1500), op: { kind: 'take' } }),
    201,
  );
  expectStatus(await call('DELETE', path(`schedule/${scheduled.id}`)), 204);
  expectProblem(await call('DELETE', path(`schedule/${scheduled.id}`)), 404, 'not_found');
  // Past its time, nothing was taken.
  const renderer = await RenderClient.connect(server.url, channelId, { token });
  await renderer.next((m) => m.type === 'snapshot');
  const seen = await renderer.collectFor(2500);
  expect(seen.filter((m) => m.type === 'frame' && m.program)).toEqual([]);
  renderer.close();
}, 60_000);

it('still takes at its time after a restart in between', async () => {
  const scheduled = expectStatus(
    await call<Scheduled>('POST', path('schedule'), { at: inMs(5000), op: { kind: 'take' } }),
    201,
  );
  await server.restart();
  const list = expectStatus(await call<{ data: Scheduled[] }>('GET', path('schedule')), 200);
  expect(list.data.map((s) => s.id)).toEqual([scheduled.id]);
  const renderer = await RenderClient.connect(server.url, channelId, { token });
  await renderer.next((m) => m.type === 'snapshot');
  expect(Math.abs((await takenFrame(renderer)) - scheduled.frame)).toBeLessThanOrEqual(1);
  renderer.close();
}, 60_000);

it('runs rundown ops and undo over the socket, with the same answers as REST', async () => {
  const rundown = expectStatus(await call<{ id: string }>('POST', path('rundowns'), { name: 'Show' }), 201);
  const ws = await RenderClient.connect(server.url, channelId, { key: server.key, scenes: 'all' });
  const snapshot = (await ws.next((m) => m.type === 'snapshot')) as { rundowns?: { id: string }[] };
  expect(snapshot.rundowns?.map((r) => r.id)).toEqual([rundown.id]);
  ws.send({ op: 'rundown.item_add', id: 'a1', rundownId: rundown.id, sceneId: score.id, label: 'Score' });
  const added = await ws.reply('a1');
  expect(added).toMatchObject({ type: 'ack', item: { sceneId: score.id, label: 'Score', state: 'ready' } });
  ws.send({ op: 'rundown.play_next', id: 'p1', rundownId: rundown.id });
  expect(await ws.reply('p1')).toMatchObject({ type: 'ack' });
  expect((await getState(call, channelId)).program.map((e) => e.sceneId)).toEqual([score.id]);
  // The dashboard's socket hears the rundown change: the item is on air.
  await ws.next(
    (m) =>
      m.type === 'frame' &&
      ((m as { rundowns?: { items: { state: string }[] }[] }).rundowns ?? []).some((r) =>
        r.items.some((i) => i.state === 'program'),
      ),
  );
  ws.send({ op: 'undo', id: 'u1' });
  expect(await ws.reply('u1')).toMatchObject({ type: 'ack' });
  expect((await getState(call, channelId)).program).toEqual([]);
  ws.send({ op: 'rundown.cue', id: 'c1', rundownId: 'rd_nope' });
  expect(await ws.reply('c1')).toMatchObject({ type: 'error', code: 'not_found' });
  const rest = await call('POST', path('rundowns/rd_nope/cue'));
  expect(rest.status).toBe(404);
  ws.close();
});

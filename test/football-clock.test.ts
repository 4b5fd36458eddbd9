/**
 * The football scoreboard's match clock over REST, on the real engine (docs/scenes.md, "Templates" and
 * "Periods"): it counts up from 0:00, stops by itself at exactly 45:00 in the 1st half, `period` moves it to the
 * 2nd half stopped at 45:00; and the same scene with a stop it can never count up to (0) is refused at save.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type Channel, type Scene } from './helpers/api.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});
afterAll(async () => {
  await server?.dispose();
});

interface MatchClock {
  running: boolean;
  ms: number;
  at: number;
  period?: number;
}

async function footballChannel(name: string): Promise<{ channel: Channel; scene: Scene }> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name }), 201);
  const body = { name: 'Football', template: 'football-scoreboard' };
  const scene = expectStatus(await call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, body), 201);
  return { channel, scene };
}

it('counts up from 0:00, stops at exactly 45:00 in the 1st half, and moves to the 2nd half there', async () => {
  const { channel } = await footballChannel('Pitch');
  const clock = (b: object) => call<{ clock: MatchClock }>('POST', `/v1/channels/${channel.id}/clocks/matchClock`, b);
  const matchClock = async () => (await getState(call, channel.id)).clocks.matchClock as MatchClock;

  expect(await matchClock()).toMatchObject({ running: false, ms: 0 });
  expectStatus(await clock({ action: 'start' }), 200);
  // Running from 0:00 in the 1st half: the state holds the time at its `at`, counting up from there.
  const started = await matchClock();
  expect(started).toMatchObject({ running: true, ms: 0 });
  expect(started.period).toBeUndefined();

  expectStatus(await clock({ action: 'stop' }), 200);
  expectStatus(await clock({ action: 'set', ms: 2_698_000 }), 200);
  expect(expectStatus(await clock({ action: 'start' }), 200).clock).toMatchObject({ running: true, ms: 2_698_000 });
  await expect.poll(async () => (await matchClock()).running, { timeout: 15_000, interval: 200 }).toBe(false);
  const halfTime = await matchClock();
  expect(halfTime).toMatchObject({ running: false, ms: 2_700_000 });
  expect(halfTime.period).toBeUndefined();

  const second = expectStatus(await clock({ action: 'period' }), 200).clock;
  expect(second).toMatchObject({ running: false, ms: 2_700_000, period: 1 });
  expect(await matchClock()).toMatchObject({ running: false, ms: 2_700_000, period: 1 });
}, 30_000);

it('refuses the scene with its match clock counting up to a stop at 0 (the clock trap), naming the stop', async () => {
  const { channel, scene } = await footballChannel('Trap');
  // The template without its halves (and the element that draws the half's name), stopping at 0 instead.
  const definition = structuredClone(scene.definition) as {
    inputs: Record<string, unknown>[];
    elements: Record<string, unknown>[];
  };
  const n = definition.inputs.findIndex((i) => i.name === 'matchClock');
  const clock: Record<string, unknown> = { ...definition.inputs[n]!, stopAt: 0 };
  delete clock.periods;
  definition.inputs[n] = clock;
  definition.elements = definition.elements.filter((el) => el.format !== 'period');
  const res = await call('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Trap', definition });
  const problem = expectProblem(res, 400, 'invalid_request');
  expect(errorPaths(problem)).toEqual([`definition.inputs.${n}.stopAt`]);
});

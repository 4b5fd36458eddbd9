/**
 * Clock periods over REST (docs/scenes.md, "Periods"; docs/api.md, "Triggers and clocks"): `period` moves a clock
 * to its next period (or one by index), the state carries the period, it survives a restart, and a bad period is
 * 400 invalid_request at `period`.
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

const match = {
  name: 'match',
  type: 'clock',
  periods: [
    { name: '1st half', stopAt: 2_700_000 },
    { name: '2nd half', stopAt: 5_400_000 },
  ],
};

it('moves a clock through its periods, keeps the period over a restart, and refuses one past the last', async () => {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Pitch' }), 201);
  const body = { name: 'Match', definition: { inputs: [match] } };
  const scene = expectStatus(await call<Scene>('POST', `/v1/channels/${channel.id}/scenes`, body), 201);
  expect(scene.inputs[0]).toMatchObject({ default: 0, periods: [{ startAt: 0 }, { startAt: 2_700_000 }] });
  const clock = (b: object) => call<{ clock: object }>('POST', `/v1/channels/${channel.id}/clocks/match`, b);

  const second = expectStatus(await clock({ action: 'period' }), 200).clock;
  expect(second).toMatchObject({ running: false, ms: 2_700_000, period: 1 });
  expect(expectStatus(await clock({ action: 'start' }), 200).clock).toMatchObject({ running: true, period: 1 });
  await server.restart();
  call = api(server.url, server.key);
  expect((await getState(call, channel.id)).clocks.match).toMatchObject({ running: true, period: 1 });

  const past = expectProblem(await clock({ action: 'period' }), 400, 'invalid_request');
  expect(errorPaths(past)).toEqual(['period']);
  const index = expectProblem(await clock({ action: 'period', period: 2 }), 400, 'invalid_request');
  expect(index.detail).toContain('periods 0 to 1');
  expectProblem(await clock({ action: 'start', period: 1 }), 400, 'invalid_request');
  expect(expectStatus(await clock({ action: 'period', period: 0 }), 200).clock).toEqual({
    running: false,
    ms: 0,
    at: expect.any(Number) as number,
  });
}, 30_000);

/**
 * A `select` input (docs/scenes.md, "Inputs"): one of fixed options. A scene declares it with its options and a
 * default among them; PATCH …/inputs and incoming hooks take one of the options and refuse anything else with
 * 400 invalid_request listing them; a definition without options, or with a default not among them, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type ApiResponse, type Channel, type Scene } from './helpers/api.js';
import type { HookCreated } from './helpers/incoming-hooks.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let channelId: string;

const HALF = { name: 'half', type: 'select', label: 'Half', options: ['1st half', '2nd half', 'Extra time'] };

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Pitch' }), 201).id;
});
afterAll(async () => {
  await server?.dispose();
});

const scenes = `/v1/channels/${'{id}'}/scenes`;
const addScene = (definition: unknown): Promise<ApiResponse<Scene>> =>
  call<Scene>('POST', scenes.replace('{id}', channelId), { name: 'Half', definition });
const patch = (body: unknown) => call('PATCH', `/v1/channels/${channelId}/inputs`, body);

describe('select inputs', () => {
  it('are declared with options, default to the first, and take only an option', async () => {
    const scene = expectStatus(await addScene({ inputs: [HALF] }), 201);
    expect(scene.inputs).toEqual([{ ...HALF, default: '1st half' }]);
    expect((await getState(call, channelId)).inputs.half).toBe('1st half');

    expectStatus(await patch({ half: '2nd half' }), 200);
    expect((await getState(call, channelId)).inputs.half).toBe('2nd half');

    for (const bad of ['3rd half', '2ND HALF', 2, true]) {
      const problem = expectProblem(await patch({ half: bad }), 400, 'invalid_request');
      expect(errorPaths(problem)).toEqual(['half']);
      expect(problem.detail).toContain('must be one of "1st half", "2nd half", "Extra time"');
    }
    expect((await getState(call, channelId)).inputs.half).toBe('2nd half');
    expectStatus(await patch({ half: null }), 200);
    expect((await getState(call, channelId)).inputs.half).toBe('1st half');
  });

  it('are set by an incoming hook only to one of the options', async () => {
    const hooks = `/v1/channels/${channelId}/incoming-hooks`;
    const hook = expectStatus(await call<HookCreated>('POST', hooks, { name: 'Feed', mapping: { p: 'half' } }), 201);
    const send = (body: unknown) => api(hook.url, '')('POST', '', body, { noAuth: true });
    expectStatus(await send({ p: 'Extra time' }), 200);
    expect((await getState(call, channelId)).inputs.half).toBe('Extra time');
    const problem = expectProblem(await send({ p: 'Penalties' }), 400, 'invalid_request');
    expect(problem.detail).toContain('must be one of "1st half", "2nd half", "Extra time"');
    expect((await getState(call, channelId)).inputs.half).toBe('Extra time');
  });

  it.each([
    ['no options', { name: 's', type: 'select' }, 'definition.inputs.0.options'],
    ['an empty list of options', { name: 's', type: 'select', options: [] }, 'definition.inputs.0.options'],
    ['a duplicate option', { name: 's', type: 'select', options: ['a', 'b', 'a'] }, 'definition.inputs.0.options.2'],
    [
      'a default not among them',
      { name: 's', type: 'select', options: ['a'], default: 'b' },
      'definition.inputs.0.default',
    ],
    ['options on a text input', { name: 's', type: 'text', options: ['a'] }, 'definition.inputs.0.options'],
  ])('refuses a definition with %s', async (_what, input, path) => {
    const problem = expectProblem(await addScene({ inputs: [input] }), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual([path]);
  });
});

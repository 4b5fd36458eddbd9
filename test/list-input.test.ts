/**
 * A `list` input (docs/scenes.md, "Lists"): rows with declared columns, for tables and tickers. A scene declares its
 * columns and maxRows; PATCH …/inputs and incoming hooks take an array of row objects and refuse a wrong shape with
 * 400 invalid_request at the path of the cell (`standings.1.pts`); the rows travel to GET …/state as they were sent.
 * A rows element draws a list input, and its children's `{column}` placeholders name the list's columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, getState, type Api, type ApiResponse, type Channel, type Scene } from './helpers/api.js';
import type { HookCreated } from './helpers/incoming-hooks.js';
import { errorPaths, expectProblem } from './helpers/problem.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
let channelId: string;

const COLUMNS = [
  { name: 'team', type: 'text' },
  { name: 'pts', type: 'number' },
];
const STANDINGS = { name: 'standings', type: 'list', label: 'Standings', columns: COLUMNS, maxRows: 3 };
const ROWS = {
  type: 'rows',
  list: 'standings',
  x: 100,
  y: 100,
  width: 800,
  height: 50,
  rowHeight: 60,
  children: [{ type: 'text', x: 0, y: 0, width: 600, height: 50, fontSize: 32, text: '{team} {pts} {title}' }],
};

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
  channelId = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'League' }), 201).id;
});
afterAll(async () => {
  await server?.dispose();
});

const addScene = (definition: unknown): Promise<ApiResponse<Scene>> =>
  call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name: 'Table', definition });
const patch = (body: unknown) => call('PATCH', `/v1/channels/${channelId}/inputs`, body);

describe('list inputs', () => {
  it('are declared with columns, default to no rows, and take rows of their columns', async () => {
    const title = { name: 'title', type: 'text' };
    const scene = expectStatus(await addScene({ inputs: [STANDINGS, title], elements: [ROWS] }), 201);
    expect(scene.inputs[0]).toEqual({ ...STANDINGS, default: [] });
    expect((await getState(call, channelId)).inputs.standings).toEqual([]);

    const rows = [{ team: 'Lions', pts: 42 }, { team: 'Tigers', pts: 40 }, { team: 'Bears' }];
    const applied = expectStatus(await patch({ standings: rows }), 200) as { inputs: Record<string, unknown> };
    expect(applied.inputs.standings).toEqual(rows);
    expect((await getState(call, channelId)).inputs.standings).toEqual(rows);
    expectStatus(await patch({ standings: null }), 200);
    expect((await getState(call, channelId)).inputs.standings).toEqual([]);
  });

  it.each([
    ['a string', 'Lions 42', 'standings', 'must be an array of rows'],
    ['a row that is not an object', [{ team: 'Lions' }, 7], 'standings.1', 'must be an object'],
    ['a number column holding text', [{ team: 'Lions', pts: 1 }, { pts: '40' }], 'standings.1.pts', 'must be a number'],
    ['a text column holding a number', [{ team: 3 }], 'standings.0.team', 'must be a string'],
    ['an undeclared column', [{ team: 'Lions', goals: 3 }], 'standings.0.goals', 'is not a column of this list'],
    ['more rows than maxRows', [{}, {}, {}, {}], 'standings', 'must have at most 3 rows'],
  ])('refuses %s with 400 at the path of the problem', async (_what, value, path, message) => {
    const before = (await getState(call, channelId)).inputs.standings;
    const problem = expectProblem(await patch({ standings: value }), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual([path]);
    expect(problem.detail).toContain(message);
    expect((await getState(call, channelId)).inputs.standings).toEqual(before);
  });

  it('are set by an incoming hook with the same checks', async () => {
    const hooks = `/v1/channels/${channelId}/incoming-hooks`;
    const hook = expectStatus(
      await call<HookCreated>('POST', hooks, { name: 'Table feed', mapping: { t: 'standings' } }),
      201,
    );
    const send = (body: unknown) => api(hook.url, '')('POST', '', body, { noAuth: true });
    expectStatus(await send({ t: [{ team: 'Wolves', pts: 12 }] }), 200);
    expect((await getState(call, channelId)).inputs.standings).toEqual([{ team: 'Wolves', pts: 12 }]);
    const problem = expectProblem(await send({ t: [{ team: 'Wolves', pts: 'twelve' }] }), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual(['t.0.pts']);
  });

  it.each([
    ['no columns', { name: 'l', type: 'list' }, 'definition.inputs.0.columns'],
    [
      'a duplicate column',
      { name: 'l', type: 'list', columns: [...COLUMNS, COLUMNS[0]] },
      'definition.inputs.0.columns.2.name',
    ],
    [
      '11 columns',
      { name: 'l', type: 'list', columns: Array.from({ length: 11 }, (_, i) => ({ name: `c${i}`, type: 'text' })) },
      'definition.inputs.0.columns',
    ],
    ['maxRows over 100', { name: 'l', type: 'list', columns: COLUMNS, maxRows: 101 }, 'definition.inputs.0.maxRows'],
    [
      'a default of the wrong shape',
      { name: 'l', type: 'list', columns: COLUMNS, default: [{ pts: 'x' }] },
      'definition.inputs.0.default',
    ],
    ['columns on a text input', { name: 'l', type: 'text', columns: COLUMNS }, 'definition.inputs.0.columns'],
  ])('refuses a definition with %s', async (_what, input, path) => {
    const problem = expectProblem(await addScene({ inputs: [input] }), 400, 'invalid_request');
    expect(errorPaths(problem)).toEqual([path]);
  });

  it('refuses a rows element on anything but a list, a column outside one, and a list shown as text', async () => {
    const title = { name: 'title', type: 'text' };
    const cases: [unknown, string][] = [
      [{ inputs: [title], elements: [{ ...ROWS, list: 'title' }] }, 'definition.elements.0.list'],
      [
        { inputs: [STANDINGS, title], elements: [{ ...ROWS.children[0], text: '{team}' }] },
        'definition.elements.0.text',
      ],
      [{ inputs: [STANDINGS], elements: [{ ...ROWS.children[0], text: '{standings}' }] }, 'definition.elements.0.text'],
    ];
    for (const [definition, path] of cases) {
      const problem = expectProblem(await addScene(definition), 400, 'invalid_request');
      // A rows element on a text input also leaves its children's columns undeclared: the list comes first.
      expect(errorPaths(problem)[0]).toBe(path);
    }
  });
});

/**
 * The event log (docs/api.md, "Events"): GET /v1/events lists what happened on the workspace's channels, oldest first,
 * every acknowledged change with its events; filters by channel and type, pages with a cursor, keeps a channel-locked
 * key to its channels and a workspace to its own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createKey,
  newWorkspace,
  setupOwner,
  startServerWith,
  type AccessServer,
  type Member,
} from './helpers/access-fixtures.js';
import {
  addScoreboard,
  api,
  expectStatus,
  patchInputs,
  type Api,
  type Channel,
  type Event,
  type List,
} from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';

let server: AccessServer;
let call: Api;
let owner: Member;
let a: string;
let b: string;
let scoreA: string;

beforeEach(async () => {
  server = await startServerWith();
  call = api(server.url, server.key);
  owner = await setupOwner(server);
  a = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'A' }), 201).id;
  b = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'B' }), 201).id;
  scoreA = (await addScoreboard(call, a)).id;
  await addScoreboard(call, b);
});

afterEach(async () => {
  await server.dispose();
});

async function events(query = '', as: Api = call): Promise<List<Event>> {
  return expectStatus(await as<List<Event>>('GET', `/v1/events${query}`), 200);
}

/** Every page of the log, `limit` at a time. */
async function allEvents(query: string, limit: number, as: Api = call): Promise<Event[]> {
  const out: Event[] = [];
  for (let cursor: string | null = null; ;) {
    const page: List<Event> = await events(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}${query}`, as);
    out.push(...page.data);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
}

const post = async (channel: string, op: string, body?: object) =>
  expectStatus(await call('POST', `/v1/channels/${channel}/${op}`, body), 200);

/** A show on channel A (cue, take, a goal with its bound flash, a trigger, the clock, clear), a patch on B. */
async function show(): Promise<void> {
  await post(a, 'preview', { sceneId: scoreA });
  await post(a, 'take');
  await patchInputs(call, a, { scoreA: 1 });
  await post(a, 'triggers/flashScoreB');
  await post(a, 'clocks/gameClock', { action: 'start' });
  await post(a, 'clear');
  await patchInputs(call, b, { home: 'LIONS' });
}

describe('GET /v1/events', () => {
  it('lists every acknowledged change with its events, oldest first, with their data and source', async () => {
    await show();
    const { data, nextCursor } = await events();
    expect(nextCursor).toBeNull();
    expect(data.map((e) => `${e.channelId === a ? 'A' : 'B'} ${e.type}`)).toEqual([
      'A channel.scene_loaded',
      'A channel.scene_loaded',
      'A channel.played',
      'A channel.bind_updated',
      'A channel.trigger_fired',
      'A channel.trigger_fired',
      'A channel.bind_updated',
      'A channel.cleared',
      'B channel.bind_updated',
    ]);
    expect(data.map((e) => e.id)).toEqual(data.map((e) => e.id).sort());
    const [cued, loaded, played, patched, bound, fired, clock, cleared] = data;
    // Who did it: the test's key (its id and name).
    const actor = cued!.data.actor;
    expect(actor).toMatchObject({ type: 'key' });
    const by = { source: 'api', actor };
    expect(cued!.data).toEqual({ sceneId: scoreA, bus: 'preview', layer: 10, itemId: null, ...by });
    expect(loaded!.data).toEqual({ sceneId: scoreA, bus: 'program', layer: 10, itemId: null, ...by });
    expect(played!.data).toEqual({ sceneId: scoreA, previousSceneId: null, layer: 10, itemId: null, ...by });
    expect(patched!.data).toMatchObject({ inputs: { scoreA: 1 }, previous: { scoreA: 0 }, source: 'api' });
    expect(bound!.data).toEqual({ sceneId: scoreA, trigger: 'flashScoreA', ...by });
    expect(fired!.data).toEqual({ sceneId: scoreA, trigger: 'flashScoreB', ...by });
    expect(clock!.data).toMatchObject({
      inputs: { gameClock: { running: true, ms: 720_000 } },
      previous: { gameClock: { running: false, ms: 720_000 } },
    });
    expect(cleared!.data).toEqual({ sceneId: scoreA, layer: 10, itemId: null, ...by });
    const [first] = data;
    expect(first).toMatchObject({ orgId: expect.any(String) as string, channelId: a });
    expect(Date.parse(first!.createdAt)).not.toBeNaN();
  });

  it('says where a change came from: a dashboard session is `dashboard`', async () => {
    expectStatus(await owner.call('PATCH', `/v1/channels/${a}/inputs`, { scoreB: 2 }), 200);
    expect((await events()).data.map((e) => e.data.source)).toEqual(['dashboard']);
  });

  it('filters by channel and type, and pages with a cursor', async () => {
    await show();
    const all = (await events()).data;
    expect((await events(`?channelId=${b}`)).data).toEqual(all.filter((e) => e.channelId === b));
    expect((await events('?type=channel.trigger_fired')).data).toEqual(
      all.filter((e) => e.type === 'channel.trigger_fired'),
    );
    expect((await events(`?channelId=${a}&type=channel.bind_updated`)).data).toHaveLength(2);
    const first = await events('?limit=2');
    expect(first.data).toEqual(all.slice(0, 2));
    expect(first.nextCursor).toBe(all[1]!.id);
    expect(await allEvents('', 2)).toEqual(all);
    expect(await allEvents(`&channelId=${a}`, 3)).toEqual(all.filter((e) => e.channelId === a));
  });

  it('starts at `since` instead of the oldest event, and then pages with the cursor', async () => {
    await show();
    const before = (await events()).data;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await patchInputs(call, a, { scoreA: 42 });
    const later = (await events(`?since=${encodeURIComponent(since)}`)).data;
    expect(later.map((e) => e.type)).toEqual(['channel.bind_updated']);
    expect(later[0]!.data).toMatchObject({ inputs: { scoreA: 42 } });
    expect(before.every((e) => e.createdAt < since)).toBe(true);
    expect((await events(`?since=${encodeURIComponent(before[0]!.createdAt)}`)).data[0]).toEqual(before[0]);
    expect((await events(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data).toEqual(
      [],
    );
    expectProblem(
      await call('GET', `/v1/events?since=${encodeURIComponent(since)}&cursor=${later[0]!.id}`),
      400,
      'invalid_request',
    );
  });

  it('refuses bad queries with 400', async () => {
    for (const q of ['?limit=0', '?limit=101', '?type=channel.exploded', '?since=yesterday', '?channelId=']) {
      expectProblem(await call('GET', `/v1/events${q}`), 400, 'invalid_request');
    }
  });

  it('keeps a channel-locked key to its channels; another channel is 404, as on every channel route', async () => {
    await show();
    const locked = api(server.url, (await createKey(call, ['channels:read'], [b])).secret);
    const seen = (await events('', locked)).data;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.channelId === b)).toBe(true);
    expectProblem(await locked('GET', `/v1/events?channelId=${a}`), 404, 'not_found');
    const writer = api(server.url, (await createKey(call, ['inputs:write'])).secret);
    expectProblem(await writer('GET', '/v1/events'), 403, 'forbidden');
  });

  it("shows a workspace only its own events; another workspace's channel is 404", async () => {
    await show();
    const other = await newWorkspace(server.url, owner);
    expect(await events('', other.call)).toEqual({ data: [], nextCursor: null });
    expectProblem(await other.call('GET', `/v1/events?channelId=${a}`), 404, 'not_found');
    expectProblem(await call('GET', '/v1/events?channelId=ch_nope'), 404, 'not_found');
  });

  it('keeps the events of a deleted channel in the workspace log', async () => {
    await patchInputs(call, b, { scoreA: 5 });
    expectStatus(await call('DELETE', `/v1/channels/${b}`), 204);
    expect((await events()).data.map((e) => e.channelId)).toEqual([b]);
  });
});

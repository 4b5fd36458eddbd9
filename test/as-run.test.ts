/**
 * The as-run log through the API (docs/as-run.md): every interval an instance was on program, with the frames and
 * actors of the ops that bounded it, a time range and a cursor, the same lines as CSV; a clean restart ends what was
 * on air and begins it again. Confirmations by outputs and kill -9 have their own files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKey } from './helpers/access-fixtures.js';
import { fromCsv, type AsRunLine, type AsRunPage as Page } from './helpers/as-run.js';
import {
  api,
  expectStatus,
  type Api,
  type ApiResponse,
  type Channel,
  type Event,
  type Scene,
  type State,
} from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

afterEach(async () => {
  await server?.dispose();
});

/** A 25 fps channel with a lower third (its name and title are item inputs, its accent a channel input). */
async function strapChannel(call: Api): Promise<{ channel: Channel; strap: Scene; path: (rest: string) => string }> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Match', fps: 25 }), 201);
  const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
  const strap = expectStatus(
    await call<Scene>('POST', path('scenes'), { name: 'Strap', template: 'lower-third' }),
    201,
  );
  return { channel, strap, path };
}

const frameOf = async (res: Promise<ApiResponse<unknown>>) => expectStatus(await res, 200) as State;

describe('the as-run log', () => {
  it('take A, update, take B, clear: A and B, the frames between the ops, their actors; CSV says the same', async () => {
    server = await startTestServer();
    const root = api(server.url, server.key);
    const { channel, strap, path } = await strapChannel(root);
    const operatorKey = await createKey(root, ['channels:read', 'playout:write']);
    const operator = api(server.url, operatorKey.secret);

    expectStatus(await root('PATCH', path('inputs'), { accent: '#112233' }), 200);
    const a = { name: 'Ada Lovelace', title: 'Guest, "first" ünïcødé' };
    expectStatus(await root('POST', path('preview'), { sceneId: strap.id, values: a }), 200);
    const tookA = await frameOf(root('POST', path('take')));
    await frameOf(operator('POST', path('update'), { values: { title: 'Analyst' } }));
    const tookB = await frameOf(root('POST', path('program'), { sceneId: strap.id, values: { name: 'Grace' } }));
    const cleared = await frameOf(operator('POST', path('clear')));

    const page = expectStatus(await root<Page>('GET', path('as-run')), 200);
    expect(page.nextCursor).toBeNull();
    expect(page.data).toHaveLength(2);
    const [lineA, lineB] = page.data as [AsRunLine, AsRunLine];
    const events = expectStatus(await root<{ data: Event[] }>('GET', `/v1/events?channelId=${channel.id}`), 200).data;
    const played = events.filter((e) => e.type === 'channel.played');
    const rootActor = played[0]!.data.actor;
    expect(rootActor.type).toBe('key');
    const operatorActor = { type: 'key', id: operatorKey.id, name: operatorKey.name };

    expect(lineA).toEqual({
      id: `asr_${played[0]!.id.slice(4)}`,
      layer: strap.layer,
      sceneId: strap.id,
      sceneName: 'Strap',
      itemId: null,
      label: 'Strap',
      values: { ...a, accent: '#112233' },
      updatedValues: { ...a, title: 'Analyst' },
      startAt: expect.any(String) as string,
      startFrame: tookA.frame,
      endAt: expect.any(String) as string,
      endFrame: tookB.frame,
      durationMs: expect.any(Number) as number,
      takenBy: rootActor,
      clearedBy: rootActor,
      confirmedAt: null,
      confirmedBy: [],
      endInferred: false,
    });
    expect(lineB).toMatchObject({
      values: { name: 'Grace', title: 'Title', accent: '#112233' },
      updatedValues: null,
      startFrame: tookB.frame,
      endFrame: cleared.frame,
      takenBy: rootActor,
      clearedBy: operatorActor,
    });
    // The durations are the frames between the ops' answers, at 40 ms a frame (± 1 frame).
    for (const [line, from, to] of [
      [lineA, tookA, tookB],
      [lineB, tookB, cleared],
    ] as const) {
      expect(Math.abs(line.durationMs! - (to.frame - from.frame) * 40)).toBeLessThanOrEqual(40);
      expect(Date.parse(line.endAt!) - Date.parse(line.startAt)).toBe(line.durationMs);
    }

    const csv = await root<string>('GET', path('as-run?format=csv'));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.body.endsWith('\r\n')).toBe(true);
    const byAccept = await root<string>('GET', path('as-run'), undefined, { headers: { accept: 'text/csv' } });
    expect(byAccept.body).toBe(csv.body);
    expect(fromCsv(csv.body)).toEqual(page.data);
  });

  it('lists the intervals that overlap a time range, a page at a time, as JSON and as CSV', async () => {
    server = await startTestServer();
    const root = api(server.url, server.key);
    const { strap, path } = await strapChannel(root);
    for (const name of ['One', 'Two', 'Three']) {
      await frameOf(root('POST', path('program'), { sceneId: strap.id, values: { name } }));
    }
    const all = expectStatus(await root<Page>('GET', path('as-run')), 200).data;
    expect(all.map((l) => [l.values.name, l.endAt === null])).toEqual([
      ['One', false],
      ['Two', false],
      ['Three', true],
    ]);
    const [one, two, three] = all as [AsRunLine, AsRunLine, AsRunLine];
    const query = (q: string) => root<Page>('GET', path(`as-run?${q}`));
    const names = async (q: string) => expectStatus(await query(q), 200).data.map((l) => l.values.name);
    // An interval that ended at `from` is not in the range; one that began at `to` neither.
    expect(await names(`from=${two.startAt}`)).toEqual(['Two', 'Three']);
    expect(await names(`to=${two.startAt}`)).toEqual(['One']);
    expect(await names(`from=${one.startAt}&to=${two.endAt!}`)).toEqual(['One', 'Two']);
    const offset = new Date(Date.parse(three.startAt) + 1).toISOString().replace('Z', '+00:00');
    expect(await names(`from=${encodeURIComponent(offset)}`)).toEqual(['Three']);

    const first = expectStatus(await query('limit=2'), 200);
    expect(first.data.map((l) => l.id)).toEqual([one.id, two.id]);
    expect(first.nextCursor).toBe(two.id);
    expect(expectStatus(await query(`limit=2&cursor=${two.id}`), 200)).toEqual({ data: [three], nextCursor: null });
    const csv = await root<string>('GET', path('as-run?limit=2&format=csv'));
    expect(fromCsv(csv.body)).toEqual(first.data);
    const next = /^<([^>]+)>; rel="next"$/.exec(csv.headers.get('link') ?? '')![1]!;
    expect(next).toMatch(new RegExp(`^/v1/channels/.+/as-run\\?.*cursor=${two.id}`));
    expect(fromCsv((await root<string>('GET', next)).body)).toEqual([three]);
  });

  it('refuses a range that ends before it begins, a page over 1000 and an unknown format; reads need channels:read', async () => {
    server = await startTestServer();
    const root = api(server.url, server.key);
    const { channel, path } = await strapChannel(root);
    const bad = async (q: string) => expectStatus(await root<{ code: string }>('GET', path(`as-run?${q}`)), 400).code;
    expect(await bad('from=2024-03-01T12:00:00Z&to=2024-03-01T11:00:00Z')).toBe('invalid_request');
    expect(await bad('limit=1001')).toBe('invalid_request');
    expect(await bad('format=xml')).toBe('invalid_request');
    expect(await bad('from=yesterday')).toBe('invalid_request');
    const writer = api(server.url, (await createKey(root, ['playout:write'])).secret);
    expect((await writer('GET', path('as-run'))).status).toBe(403);
    const other = expectStatus(await root<Channel>('POST', '/v1/channels', { name: 'Other' }), 201);
    const locked = api(server.url, (await createKey(root, ['channels:read'], [other.id])).secret);
    expect((await locked('GET', `/v1/channels/${channel.id}/as-run`)).status).toBe(404);
  });

  it('a clean stop ends what is on air then; the restart begins it again, by the server', async () => {
    server = await startTestServer();
    const root = api(() => server.url, server.key);
    const { strap, path } = await strapChannel(root);
    await frameOf(root('POST', path('program'), { sceneId: strap.id, values: { name: 'Ada' } }));
    const stoppedAt = Date.now();
    await server.restart();
    const [before, after] = expectStatus(await root<Page>('GET', path('as-run')), 200).data as [AsRunLine, AsRunLine];
    expect(before).toMatchObject({ endInferred: false, clearedBy: null, values: { name: 'Ada' } });
    expect(Date.parse(before.endAt!)).toBeGreaterThanOrEqual(stoppedAt - 40);
    expect(after).toMatchObject({
      sceneId: strap.id,
      values: before.values,
      endAt: null,
      takenBy: { type: 'system', id: 'restart', name: 'onair restart' },
    });
    expect(after.startAt >= before.endAt!).toBe(true);
  });
});

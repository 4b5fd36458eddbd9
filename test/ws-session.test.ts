/**
 * The dashboard's session on the render WebSocket (docs/api.md, "Real-time WebSocket"): the session cookie
 * opens /v1/ws from this server's own pages only, acts with the role it has in the channel's workspace, is
 * authorized afresh on every op (a demotion applies at once), and is closed with 4001 when the session ends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloseCode } from '@onair/protocol';
import {
  addMember,
  newWorkspace,
  setupOwner,
  startServerWith,
  type AccessServer,
  type Member,
} from './helpers/access-fixtures.js';
import { api, createChannelWithScoreboard, expectStatus, type Event, type List } from './helpers/api.js';
import { RenderClient, UpgradeRefused } from './helpers/ws-client.js';

let server: AccessServer;
let owner: Member;
let channelId: string;
const open: RenderClient[] = [];

beforeEach(async () => {
  server = await startServerWith({}, { heartbeatMs: 100 });
  owner = await setupOwner(server);
  ({ channelId } = await createChannelWithScoreboard(api(server.url, server.key)));
});
afterEach(async () => {
  for (const client of open.splice(0)) client.close();
  await server.dispose();
});

async function connectAs(member: Member, origin: string | null = server.url): Promise<RenderClient> {
  const headers: Record<string, string> = { cookie: member.cookie };
  if (origin !== null) headers.origin = origin;
  const client = await RenderClient.connect(server.url, channelId, { headers });
  open.push(client);
  await client.until(() => client.mirror);
  return client;
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof UpgradeRefused)) throw new Error(`expected a refused upgrade, got ${String(err)}`);
  return { status: err.status, code: (JSON.parse(err.body) as { code: string }).code };
}

describe('a session on /v1/ws', () => {
  it('receives the snapshot and sends acked ops, recorded as from the dashboard', async () => {
    const client = await connectAs(owner);
    expect(client.mirror?.inputs.scoreA).toBe(0);
    client.send({ op: 'patch', id: 'p1', inputs: { scoreA: 3 } });
    expect(await client.reply('p1')).toMatchObject({ type: 'ack', id: 'p1' });
    await client.until(() => (client.mirror?.inputs.scoreA === 3 ? true : undefined));
    const events = expectStatus(await owner.call<List<Event>>('GET', `/v1/events?channelId=${channelId}`), 200);
    const update = events.data.find((e) => e.type === 'channel.bind_updated');
    expect(update?.data).toMatchObject({ inputs: { scoreA: 3 }, source: 'dashboard' });
  });

  it("is refused from another site's page, or with no Origin at all (cross-site WebSocket hijacking)", async () => {
    const headers = { cookie: owner.cookie };
    expect(
      await refusal(
        RenderClient.connect(server.url, channelId, { headers: { ...headers, origin: 'https://evil.example' } }),
      ),
    ).toEqual({ status: 403, code: 'forbidden' });
    expect(await refusal(RenderClient.connect(server.url, channelId, { headers }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect(await refusal(RenderClient.connect(server.url, channelId, { headers: { origin: server.url } }))).toEqual({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('answers 404 for a channel of a workspace the user is not a member of', async () => {
    const other = await newWorkspace(server.url, owner);
    const stranger = await addMember(server.url, other.session, 'stranger@example.com', 'owner');
    expect(
      await refusal(
        RenderClient.connect(server.url, channelId, { headers: { cookie: stranger.cookie, origin: server.url } }),
      ),
    ).toEqual({ status: 404, code: 'not_found' });
  });

  it('follows several channels of its workspace with channels=, and is refused one of another workspace', async () => {
    const second = (await createChannelWithScoreboard(api(server.url, server.key), 'Second')).channelId;
    const headers = { cookie: owner.cookie, origin: server.url };
    for (const channels of [`${channelId},${second}`, '*']) {
      const client = await RenderClient.connect(server.url, '', { headers, channels });
      open.push(client);
      await client.next((m) => m.type === 'snapshot' && m.channelId === channelId);
      await client.next((m) => m.type === 'snapshot' && m.channelId === second);
      client.send({ op: 'patch', id: 'p1', channelId: second, inputs: { scoreA: 2 } });
      expect(await client.reply('p1')).toMatchObject({ type: 'ack', channelId: second });
    }
    const other = await newWorkspace(server.url, owner);
    const stranger = await addMember(server.url, other.session, 'stranger@example.com', 'owner');
    const foreign = { headers: { cookie: stranger.cookie, origin: server.url }, channels: `${channelId},${second}` };
    expect(await refusal(RenderClient.connect(server.url, '', foreign))).toEqual({ status: 404, code: 'not_found' });
  });

  it('lets a viewer watch but not write, and applies a demotion to the very next op', async () => {
    const viewer = await addMember(server.url, owner.call, 'viewer@example.com', 'viewer');
    const watching = await connectAs(viewer);
    watching.send({ op: 'patch', id: 'v1', inputs: { scoreA: 1 } });
    expect(await watching.reply('v1')).toMatchObject({ type: 'error', id: 'v1', code: 'forbidden' });

    const operator = await addMember(server.url, owner.call, 'operator@example.com', 'operator');
    const client = await connectAs(operator);
    client.send({ op: 'take', id: 't1' });
    expect(await client.reply('t1')).toMatchObject({ type: 'error', code: 'preview_empty' });
    expectStatus(await owner.call('PATCH', `/v1/members/${operator.userId}`, { role: 'viewer' }), 200);
    client.send({ op: 'patch', id: 'o1', inputs: { scoreA: 2 } });
    expect(await client.reply('o1')).toMatchObject({ type: 'error', code: 'forbidden' });
  });

  it('is closed with 4001 when the session ends (logout) or the member is removed', async () => {
    const client = await connectAs(owner);
    const operator = await addMember(server.url, owner.call, 'gone@example.com', 'operator');
    const other = await connectAs(operator);
    expect((await owner.call('POST', '/v1/auth/logout')).status).toBe(204);
    expect((await client.closed).code).toBe(CloseCode.unauthorized);
    const login = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: 'correct horse battery staple' }),
    });
    const cookie = /(onair_session=[^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
    const again = { ...owner, cookie, call: owner.call };
    const removal = await fetch(`${server.url}/v1/members/${operator.userId}`, {
      method: 'DELETE',
      headers: { cookie: again.cookie, origin: server.url },
    });
    expect(removal.status).toBe(204);
    expect((await other.closed).code).toBe(CloseCode.unauthorized);
  });
});

/**
 * Who did it (docs/rundowns.md, "Who did it"): every event names its actor: a dashboard user by id and email, an API
 * key by id and name, an incoming hook by id and name; the history lists the same actors for the actions it keeps.
 */
import { afterEach, expect, it } from 'vitest';
import { createKey, setupOwner, startServerWith, type AccessServer } from './helpers/access-fixtures.js';
import { api, expectStatus, type Channel, type Scene } from './helpers/api.js';

let server: AccessServer;

afterEach(async () => {
  await server?.dispose();
});

interface Event {
  type: string;
  data: { actor: { type: string; id: string; name: string }; source: string };
}

it('names the user, the key and the hook behind each event', async () => {
  server = await startServerWith();
  const owner = await setupOwner(server, 'director@example.com');
  const root = api(server.url, server.key);
  const channel = expectStatus(await owner.call<Channel>('POST', '/v1/channels', { name: 'Who' }), 201);
  const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
  const score = expectStatus(
    await owner.call<Scene>('POST', path('scenes'), { name: 'S', template: 'scoreboard' }),
    201,
  );

  // A user in the dashboard takes; a key patches; a hook posts.
  expectStatus(await owner.call('POST', path('program'), { sceneId: score.id }), 200);
  const key = await createKey(root, ['inputs:write'], [channel.id]);
  const named = expectStatus(await root<{ name: string }>('GET', `/v1/keys/${key.id}`), 200);
  expectStatus(await api(server.url, key.secret)('PATCH', path('inputs'), { scoreA: 2 }), 200);
  const hook = expectStatus(
    await owner.call<{ id: string; name: string; url: string }>('POST', path('incoming-hooks'), {
      name: 'Scorekeeper',
      mapping: { home: 'scoreB' },
    }),
    201,
  );
  expect(
    (await fetch(hook.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"home":4}' }))
      .status,
  ).toBe(200);

  const events = expectStatus(
    await root<{ data: Event[] }>('GET', `/v1/events?channelId=${channel.id}&limit=100`),
    200,
  ).data;
  const played = events.find((e) => e.type === 'channel.played')!;
  expect(played.data.actor).toEqual({ type: 'user', id: owner.userId, name: 'director@example.com' });
  const patched = events.filter((e) => e.type === 'channel.bind_updated').map((e) => e.data.actor);
  expect(patched).toContainEqual({ type: 'key', id: key.id, name: named.name });
  expect(patched).toContainEqual({ type: 'hook', id: hook.id, name: 'Scorekeeper' });
  for (const e of events) expect(e.data.actor.type, e.type).toMatch(/^(user|key|hook)$/);
});

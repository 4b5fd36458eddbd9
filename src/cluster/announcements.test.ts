/**
 * The announcements between nodes: every kind reaches its handler on the other nodes, what is not an announcement is
 * dropped and logged, and a broadcast that fails is logged with its kind. Two real buses on the real Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { channelRecord, sceneRecord } from '../engine/engine.fixtures.js';
import { recordingLogger } from '../../test/helpers/recording-logger.js';
import { serviceGate, serviceUrl, uniqueName } from '../../test/helpers/services.js';
import { Announcements, type Announcement, type AnnouncementHandlers } from './announcements.js';
import { ClusterBus } from './cluster-bus.js';
import { RedisConnections } from './redis-connections.js';

const gate = serviceGate('redis');

describe.skipIf(gate.skip)(`Announcements${gate.label}`, () => {
  const buses: ClusterBus[] = [];
  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
  });

  async function twoNodes() {
    const prefix = `${uniqueName('onair_test')}:`;
    const { logger, lines } = recordingLogger<{ level: number; msg: string; kind?: string }>();
    const connections = new RedisConnections(logger);
    const [a, b] = await Promise.all(
      ['a', 'b'].map((nodeId) => ClusterBus.connect({ url: serviceUrl('redis'), nodeId, prefix, connections })),
    );
    buses.push(a!, b!);
    return { a: new Announcements(a!, logger), b: new Announcements(b!, logger), busA: a!, lines };
  }

  /** Handlers that record each call as [handler, ...arguments]. */
  function recorder() {
    const heard: unknown[][] = [];
    const on =
      (name: string) =>
      (...args: unknown[]) =>
        void heard.push([name, ...args]);
    const handlers: AnnouncementHandlers = {
      channelAdded: on('channelAdded'),
      channelUpdated: on('channelUpdated'),
      channelRemoved: on('channelRemoved'),
      sceneUpserted: on('sceneUpserted'),
      sceneRemoved: on('sceneRemoved'),
      keyRevoked: on('keyRevoked'),
      webhooksChanged: on('webhooksChanged'),
      outputsShared: on('outputsShared'),
    };
    return { heard, handlers };
  }

  it('hands every kind to its handler on the other node, in order', async () => {
    const { a, b } = await twoNodes();
    const { heard, handlers } = recorder();
    b.hear(handlers);
    const record = channelRecord('ch_1');
    const scene = sceneRecord('sc_1', 'ch_1', []);
    const summary = { channelId: 'ch_1', views: [], total: 0, refused: null, programOutputs: 0, painted: [] };
    const sent: Announcement[] = [
      { kind: 'channel-added', record, frame: 7 },
      { kind: 'channel-updated', record },
      { kind: 'scene-upserted', scene },
      { kind: 'scene-removed', channelId: 'ch_1', sceneId: 'sc_1' },
      { kind: 'channel-removed', channelId: 'ch_1' },
      { kind: 'key-revoked', keyId: 'key_1' },
      { kind: 'webhooks-changed' },
      { kind: 'outputs', node: 'a', summary },
    ];
    for (const message of sent) a.announce(message);
    await expect.poll(() => heard.length).toBe(sent.length);
    expect(heard).toEqual([
      ['channelAdded', record, 7],
      ['channelUpdated', record],
      ['sceneUpserted', scene],
      ['sceneRemoved', 'ch_1', 'sc_1'],
      ['channelRemoved', 'ch_1'],
      ['keyRevoked', 'key_1'],
      ['webhooksChanged'],
      ['outputsShared', 'a', summary],
    ]);
  });

  it('drops what is not an announcement, logging it, and keeps hearing', async () => {
    const { a, b, busA, lines } = await twoNodes();
    const { heard, handlers } = recorder();
    b.hear(handlers);
    await busA.broadcast({ kind: 'key-revoked', keyId: 42 });
    await busA.broadcast({ kind: 'channel-updated', record: { id: 'ch_1', fps: 61 } });
    a.announce({ kind: 'webhooks-changed' });
    await expect.poll(() => heard).toEqual([['webhooksChanged']]);
    expect(lines.filter((l) => l.msg === 'announcement not understood')).toHaveLength(2);
  });

  it('logs a handler that throws, with the kind, and a broadcast that fails, with the kind', async () => {
    const { a, b, busA, lines } = await twoNodes();
    const { handlers } = recorder();
    b.hear({
      ...handlers,
      keyRevoked: () => {
        throw new Error('cache gone');
      },
    });
    a.announce({ kind: 'key-revoked', keyId: 'key_1' });
    await expect
      .poll(() => lines.filter((l) => l.msg === 'announcement not applied').map((l) => [l.level, l.kind]))
      .toEqual([[40, 'key-revoked']]);
    await busA.close();
    a.announce({ kind: 'webhooks-changed' });
    await expect
      .poll(() => lines.filter((l) => l.msg === 'announcement to the other nodes failed').map((l) => [l.level, l.kind]))
      .toEqual([[40, 'webhooks-changed']]);
  });
});

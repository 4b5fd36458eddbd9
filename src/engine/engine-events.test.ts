/**
 * Events travel with the change that caused them: ids are given when the tick is prepared, the committer
 * receives them in the same call as the state (one transaction), and `onEvents` hears of them only once that
 * tick is durable. A tick that fails to commit has neither state nor events.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { API_BY, API_EVENT, channelRecord, emptyLive, engineHarness, ISO, sceneRecord } from './engine.fixtures.js';
import type { Origin } from './ops.js';

const scene = (ch: string) =>
  sceneRecord('sc_' + ch, ch, [{ name: 'score', type: 'number', label: 'Score', default: 0 }], {
    triggers: [{ name: 'goal', animation: 'flash' }],
  });

function setup() {
  return engineHarness(
    ['ch_a', 'ch_b'].map((id) => ({ channel: channelRecord(id), scenes: [scene(id)], live: emptyLive(7) })),
  );
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('events', () => {
  it('carry an id in creation order, the workspace, the channel and the tick time', async () => {
    const h = setup();
    const { frame } = await h.run('ch_a', { kind: 'cut', sceneId: 'sc_ch_a' });
    await h.run('ch_a', { kind: 'trigger', name: 'goal' });
    // The cut's history entry takes an id from the same sequence (his_000003): ids are in order, not contiguous.
    expect(h.events.map((e) => e.id)).toEqual(['evt_000001', 'evt_000002', 'evt_000004']);
    const tickIso = h.committer.ticks[0]!.changes[0]!.live.updatedAt;
    expect(h.events[0]).toEqual({
      id: 'evt_000001',
      type: 'channel.scene_loaded',
      orgId: 'org_1',
      channelId: 'ch_a',
      createdAt: tickIso,
      data: { sceneId: 'sc_ch_a', bus: 'program', layer: 0, itemId: null, ...API_EVENT },
    });
    expect(tickIso).not.toBe(ISO);
    expect(frame).toBe(h.committer.ticks[0]!.frame);
  });

  it('carry the source and the actor of the op that caused them', async () => {
    const h = setup();
    const origins: Origin[] = [
      API_BY,
      { source: 'dashboard', actor: { type: 'user', id: 'usr_1', name: 'op@example.com' } },
      { source: 'incoming_webhook', actor: { type: 'hook', id: 'hk_1', name: 'scores' } },
    ];
    const ops = origins.map((by, i) =>
      h.engine.submit('ch_a', { kind: 'patch', values: new Map([['score', i + 1]]), by }),
    );
    await h.advance();
    await Promise.all(ops);
    expect(h.events.map((e) => ({ source: e.data.source, actor: e.data.actor }))).toEqual(origins);
  });

  it('are handed to the committer with the state of their tick, and to onEvents in the same order', async () => {
    const h = setup();
    const ops = [
      h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_ch_a', by: API_BY }),
      h.engine.submit('ch_b', { kind: 'patch', values: new Map([['score', 4]]), by: API_BY }),
    ];
    await h.advance();
    await Promise.all(ops);
    expect(h.committer.ticks).toHaveLength(1);
    const committed = h.committer.ticks[0]!.changes.flatMap((c) => c.events);
    expect(committed.map((e) => `${e.channelId} ${e.type}`)).toEqual([
      'ch_a channel.scene_loaded',
      'ch_a channel.played',
      'ch_b channel.bind_updated',
    ]);
    expect(h.events).toEqual(committed);
  });

  it('a tick that fails to commit leaves neither state nor events; the retry gets new ids', async () => {
    const h = setup();
    h.committer.failNext = 1;
    const refused = h.engine.submit('ch_a', { kind: 'cut', sceneId: 'sc_ch_a', by: API_BY });
    refused.catch(() => undefined);
    await h.advance();
    await expect(refused).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'unavailable');
    expect(h.events).toEqual([]);
    expect(h.engine.state('ch_a').program).toEqual([]);
    expect(h.committer.ticks).toEqual([]);

    await h.run('ch_a', { kind: 'cut', sceneId: 'sc_ch_a' });
    // The refused tick used evt_000001…3 (two events and the history entry's id); none is given again.
    expect(h.events.map((e) => e.id)).toEqual(['evt_000004', 'evt_000005']);
  });

  it('reach onEvents only once their tick is durable, never when the flush fails', async () => {
    const h = setup();
    h.committer.deferFlush = true;
    const first = h.engine.submit('ch_a', { kind: 'patch', values: new Map([['score', 1]]), by: API_BY });
    await h.advance();
    expect(h.committer.ticks[0]!.changes[0]!.events).toHaveLength(1);
    expect(h.events).toEqual([]);
    h.committer.flushes[0]!.resolve();
    await first;
    expect(h.events).toHaveLength(1);

    const second = h.engine.submit('ch_a', { kind: 'patch', values: new Map([['score', 2]]), by: API_BY });
    second.catch(() => undefined);
    await h.advance();
    h.committer.flushes[1]!.reject(new Error('EIO'));
    await flush();
    await expect(second).rejects.toMatchObject({ code: 'unavailable' });
    expect(h.events).toHaveLength(1);
  });

  it('ops that change nothing fire no event', async () => {
    const h = setup();
    await h.run('ch_a', { kind: 'clear' });
    await h.run('ch_a', { kind: 'patch', values: new Map([['score', 0]]) });
    await h.run('ch_a', { kind: 'patch', values: new Map([['score', null]]) });
    expect(h.events.map((e) => e.type)).toEqual(['channel.bind_updated', 'channel.bind_updated']);
    // The first patch set the default explicitly (stored), the second cleared it: both are writes; a
    // third identical clear is not.
    await h.run('ch_a', { kind: 'patch', values: new Map([['score', null]]) });
    expect(h.events).toHaveLength(2);
  });

  it('an event op records an event about the outputs, and changes and sends nothing', async () => {
    const h = setup();
    await h.run('ch_a', { kind: 'cut', sceneId: 'sc_ch_a' });
    const before = h.engine.onAir('ch_a');
    const sent = h.frames.length;
    const by: Origin = { source: 'output', actor: { type: 'system', id: 'system', name: 'onair' } };
    await h.run('ch_a', { kind: 'event', type: 'output.lost', data: { outputId: 'out_1' } }, by);
    expect(h.events.at(-1)).toMatchObject({
      type: 'output.lost',
      channelId: 'ch_a',
      data: { outputId: 'out_1', ...by },
    });
    expect(h.engine.onAir('ch_a')).toEqual(before);
    expect(h.frames).toHaveLength(sent);
  });
});

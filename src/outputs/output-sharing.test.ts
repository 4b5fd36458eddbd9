/**
 * Outputs spread over several nodes (docs/outputs.md, "Several nodes"): two Outputs, as two nodes have, sharing their
 * summaries with each other, over a real engine on a manual clock. Each lists the other's outputs, forgets a node gone
 * silent, and the two raise one `channel.unconfirmed` between them, never one for what the other node's outputs
 * painted.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { channelRecord, emptyLive, engineHarness, sceneRecord } from '../engine/engine.fixtures.js';
import { Outputs, UNCONFIRMED_FRAMES, type OutputsSummary } from './outputs.js';
import { REMOTE_TTL_MS } from './remote-outputs.js';

const ch = 'ch_a';
const hubs: Outputs[] = [];
afterEach(() => hubs.splice(0).forEach((hub) => hub.stop()));

function twoNodes() {
  const h = engineHarness([
    {
      channel: channelRecord(ch),
      scenes: [sceneRecord('sc_1', ch, [], { layer: 10 }), sceneRecord('sc_2', ch, [], { layer: 10 })],
      live: emptyLive(7),
    },
  ]);
  const raised: { node: string; type: string; data: Record<string, unknown> }[] = [];
  const nodes = new Map<string, Outputs>();
  /** A node whose summaries reach every other node at once, while `linked` says so. */
  const node = (nodeId: string) => {
    const hub: Outputs = new Outputs({
      engine: h.engine,
      raise: async (_channelId, type, data) => void raised.push({ node: nodeId, type, data }),
      logger: pino({ level: 'silent' }),
      now: () => h.time.now(),
      peers: {
        nodeId,
        share: (summary: OutputsSummary) => {
          if (!links.silent.has(nodeId))
            for (const [id, other] of nodes) if (id !== nodeId) other.heard(nodeId, summary);
        },
      },
    });
    nodes.set(nodeId, hub);
    hubs.push(hub);
    return hub;
  };
  const links = { silent: new Set<string>() };
  const a = node('node-a');
  const b = node('node-b');
  const run = async (op: Parameters<typeof h.run>[1]) => {
    await h.run(ch, op);
    for (const hub of [a, b]) hub.sent(ch, h.engine.onAir(ch).frame);
  };
  const painted = (layers = h.engine.onAir(ch).program) => ({
    op: 'painted',
    frame: h.engine.onAir(ch).frame,
    layers: layers.map((e) => ({ layer: e.layer, sceneId: e.sceneId, itemId: e.itemId, inDone: true })),
    fps: 60,
    width: 1920,
    height: 1080,
    kind: 'browser',
    bus: 'program',
  });
  const later = (ms: number) => {
    h.time.advance(ms);
    a.sweep();
    b.sweep();
  };
  return { h, a, b, run, painted, later, raised, links };
}

describe('outputs on several nodes', () => {
  it('lists every node’s outputs on each node, and drops them when they close there', async () => {
    const { a, b, run, painted, later } = twoNodes();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const onA = a.open({ channelId: ch, address: '10.0.0.1' });
    const onB = b.open({ channelId: ch, address: '10.0.0.2' });
    a.report(onA, painted());
    b.report(onB, painted());
    b.refused(ch, '10.0.0.9');
    later(600);
    for (const hub of [a, b]) {
      expect(
        hub
          .list(ch)
          .data.map((o) => o.address)
          .sort(),
      ).toEqual(['10.0.0.1', '10.0.0.2']);
      expect(hub.message(ch)).toMatchObject({ total: 2, refused: { count: 1, lastAddress: '10.0.0.9' } });
    }
    b.close(onB, 1001);
    later(600);
    expect(a.list(ch).data.map((o) => o.address)).toEqual(['10.0.0.1']);
    expect(a.message(ch).total).toBe(1);
  });

  it('forgets the outputs of a node gone silent', async () => {
    const { a, b, run, painted, later, links } = twoNodes();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const onB = b.open({ channelId: ch, address: '10.0.0.2' });
    b.report(onB, painted());
    later(600);
    expect(a.list(ch).data).toHaveLength(1);
    links.silent.add('node-b');
    for (let t = 0; t < REMOTE_TTL_MS - 1_000; t += 1_000) later(1_000);
    expect(a.list(ch).data).toHaveLength(1);
    later(2_000);
    expect(a.list(ch).data).toEqual([]);
  });

  it('raises channel.unconfirmed once between the nodes, and never for what the other node’s outputs painted', async () => {
    const { a, b, run, painted, later, raised } = twoNodes();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const onA = a.open({ channelId: ch, address: '10.0.0.1' });
    const onB = b.open({ channelId: ch, address: '10.0.0.2' });
    a.report(onA, painted());
    b.report(onB, painted());
    const windowMs = (UNCONFIRMED_FRAMES * 1000) / 60;
    const alive = (paintsOnB: boolean) => {
      a.report(onA, painted([]));
      b.report(onB, paintsOnB ? painted() : painted([]));
    };
    // sc_2 painted by node b's output only: node a, which judges, hears of it and raises nothing.
    await run({ kind: 'cut', sceneId: 'sc_1' });
    await run({ kind: 'cut', sceneId: 'sc_2' });
    for (let t = 0; t < windowMs + 1_000; t += 250) {
      later(250);
      alive(true);
    }
    expect(raised.filter((r) => r.type === 'channel.unconfirmed')).toEqual([]);
    // sc_1 again, painted by nobody: one alert, counting both nodes' outputs.
    await run({ kind: 'cut', sceneId: 'sc_1' });
    for (let t = 0; t < windowMs + 1_000; t += 250) {
      later(250);
      alive(false);
    }
    const alerts = raised.filter((r) => r.type === 'channel.unconfirmed');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ node: 'node-a', data: { sceneId: 'sc_1', outputs: 2 } });
  });
});

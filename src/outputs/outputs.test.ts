/**
 * The outputs of one server against a real engine on a manual clock: what a report lists, what it cannot do (a frame
 * never sent, a scene not on its bus, a flood, too much text), health and its events, confirmations and the alert for
 * what nobody painted.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { channelRecord, emptyLive, engineHarness, sceneRecord } from '../engine/engine.fixtures.js';
import type { OutputEventType } from '../engine/index.js';
import { Outputs, UNCONFIRMED_FRAMES, type Confirmation } from './outputs.js';

const ch = 'ch_a';
const scene = (id: string) => sceneRecord(id, ch, [], { layer: 10 });

interface Raised {
  channelId: string;
  type: OutputEventType;
  data: Record<string, unknown>;
}

let hub: Outputs | null = null;
afterEach(() => hub?.stop());

async function setup() {
  const h = engineHarness([
    { channel: channelRecord(ch), scenes: [scene('sc_1'), scene('sc_2')], live: emptyLive(7) },
    { channel: channelRecord('ch_b'), scenes: [sceneRecord('sc_b', 'ch_b', [])], live: emptyLive(7) },
  ]);
  const raised: Raised[] = [];
  hub = new Outputs({
    engine: h.engine,
    raise: async (channelId, type, data) => raised.push({ channelId, type, data }),
    logger: pino({ level: 'silent' }),
    now: () => h.time.now(),
  });
  const outputs = hub;
  /** Runs an op and tells the outputs of the frame it sent, as the transport does. */
  const run = async (op: Parameters<typeof h.run>[1]) => {
    await h.run(ch, op);
    outputs.sent(ch, h.engine.onAir(ch).frame);
  };
  const program = () => h.engine.onAir(ch).program;
  /** What a page drawing the program bus reports of it now. */
  const painted = (extra: Record<string, unknown> = {}) => ({
    op: 'painted',
    frame: h.engine.onAir(ch).frame,
    layers: program().map((e) => ({ layer: e.layer, sceneId: e.sceneId, itemId: e.itemId, inDone: true })),
    fps: 60,
    width: 1920,
    height: 1080,
    kind: 'browser',
    bus: 'program',
    ...extra,
  });
  const later = (ms: number) => {
    h.time.advance(ms);
    outputs.sweep();
  };
  return { h, hub: outputs, raised, run, painted, later, types: () => raised.map((r) => r.type) };
}

describe('outputs', () => {
  it('lists an output from its first report, with what it painted, and raises output.connected', async () => {
    const { hub, run, painted, types } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: '10.0.0.9' });
    expect(hub.list(ch).data).toEqual([]);
    hub.report(out, painted({ kind: 'obs', visible: false, active: true }));
    const [view] = hub.list(ch).data;
    expect(view).toMatchObject({
      id: out.id,
      kind: 'obs',
      bus: 'program',
      address: '10.0.0.9',
      lagFrames: 0,
      fps: 60,
      size: { width: 1920, height: 1080 },
      visible: false,
      active: true,
      health: 'ok',
      layers: [{ layer: 10, sceneId: 'sc_1', itemId: null, inDone: true }],
    });
    expect(out.id).toMatch(/^out_[0-9a-f]{32}$/);
    expect(types()).toEqual(['output.connected']);
  });

  it('drops a report of a frame never sent, and layers whose scene is not on its bus there', async () => {
    const { h, hub, run, painted } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: 'a' });
    hub.report(out, painted({ frame: h.engine.onAir(ch).frame + 1_000 }));
    expect(hub.list(ch).data).toEqual([]);
    const foreign = [
      { layer: 10, sceneId: 'sc_b', itemId: null, inDone: true },
      { layer: 10, sceneId: 'sc_2', itemId: null, inDone: true },
      { layer: 10, sceneId: 'sc_1', itemId: 'it_forged', inDone: true },
    ];
    hub.report(out, painted({ layers: [...painted().layers, ...foreign] }));
    expect(hub.list(ch).data[0]!.layers).toEqual([{ layer: 10, sceneId: 'sc_1', itemId: null, inDone: true }]);
    expect(hub.counters.rejected).toMatchObject({ frame_ahead: 1, not_on_bus: 3 });
    expect(hub.counters.reports).toBe(1);
  });

  it('takes at most 5 reports a second from one connection, clips what is too long and keeps no token', async () => {
    const { hub, run, painted, later } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: 'a' });
    for (let i = 0; i < 12; i++) hub.report(out, painted());
    expect(hub.counters).toMatchObject({ reports: 5, rejected: { flood: 7 } });
    later(1_000);
    const url = `https://x.test/crest.png?channel=${ch}&token=SECRET${'x'.repeat(5_000)}`;
    const errors = Array.from({ length: 40 }, (_, i) => ({ message: `broken ${i} ${'!'.repeat(10_000)}`, url }));
    hub.report(out, painted({ errors }));
    const shown = hub.list(ch).data[0]!.errors;
    expect(shown).toHaveLength(10);
    expect(shown[0]!.message).toHaveLength(300);
    expect(shown[0]!.url).toBe(`https://x.test/crest.png?channel=${ch}`);
    expect(JSON.stringify(hub.list(ch))).not.toContain('SECRET');
    expect(hub.counters.rejected.clipped).toBe(1);
    hub.report(out, { op: 'painted', frame: 'soon' });
    expect(hub.counters.rejected.invalid).toBe(1);
  });

  it('shows an output lagging when it falls behind or goes silent, once, and raises output.lagging', async () => {
    const { hub, run, painted, later, types } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: 'a' });
    hub.report(out, painted());
    const old = painted();
    await run({ kind: 'cut', sceneId: 'sc_2' });
    later(1_000); // the new frame has been out for a second: 60 frames
    hub.report(out, { ...old, layers: [] });
    expect(hub.list(ch).data[0]!.lagFrames).toBeGreaterThanOrEqual(60);
    later(300);
    later(800);
    expect(hub.list(ch).data[0]!.health).toBe('lagging');
    hub.report(out, painted());
    later(1_100);
    later(300);
    expect(hub.list(ch).data[0]).toMatchObject({ health: 'ok', lagFrames: 0 });
    // Silent: no report for more than 12 s.
    for (let i = 0; i < 40; i++) later(250);
    expect(hub.list(ch).data[0]!.health).toBe('ok');
    for (let i = 0; i < 12; i++) later(250);
    expect(hub.list(ch).data[0]!.health).toBe('lagging');
    // The second lagging within 30 s raised no second event.
    expect(types().filter((t) => t === 'output.lagging')).toHaveLength(1);
  });

  it('shows load failures for a minute as health error, raising output.error with the new ones', async () => {
    const { hub, run, painted, later, raised } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: 'a' });
    const error = { message: 'image failed to load', url: '/assets/missing.png?channel=ch_a' };
    hub.report(out, painted({ errors: [error] }));
    later(600);
    hub.report(out, painted({ errors: [error] }));
    expect(hub.list(ch).data[0]).toMatchObject({ health: 'error', errors: [error] });
    expect(raised.filter((r) => r.type === 'output.error').map((r) => r.data.errors)).toEqual([
      [expect.objectContaining(error)],
    ]);
    for (let i = 0; i < 61; i++) {
      later(1_000);
      hub.report(out, painted());
    }
    expect(hub.list(ch).data[0]).toMatchObject({ health: 'ok', errors: [] });
  });

  it('confirms each on-air instance once per output, when its in-transition is done', async () => {
    const { hub, run, painted, later } = await setup();
    const confirmed: Confirmation[] = [];
    hub.onConfirmed((c) => confirmed.push(c));
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const a = hub.open({ channelId: ch, address: 'a' });
    const b = hub.open({ channelId: ch, address: 'b' });
    const entering = painted();
    entering.layers[0]!.inDone = false;
    hub.report(a, entering);
    expect(confirmed).toEqual([]);
    later(500);
    hub.report(a, painted());
    hub.report(b, painted());
    later(500);
    hub.report(a, painted());
    expect(confirmed.map((c) => c.outputId)).toEqual([a.id, b.id]);
    expect(confirmed[0]).toMatchObject({ channelId: ch, layer: 10, sceneId: 'sc_1', itemId: null });
    await run({ kind: 'clear' });
    await run({ kind: 'cut', sceneId: 'sc_1' });
    later(500);
    hub.report(a, painted());
    expect(confirmed.map((c) => c.outputId)).toEqual([a.id, b.id, a.id]);
    expect(confirmed[2]!.since).not.toBe(confirmed[0]!.since);
  });

  it('raises channel.unconfirmed once for what is on program and painted by none of its outputs in time', async () => {
    const { h, hub, run, painted, later, raised } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const out = hub.open({ channelId: ch, address: 'a' });
    hub.report(out, painted());
    const stale = painted();
    await run({ kind: 'cut', sceneId: 'sc_2' });
    const windowMs = (UNCONFIRMED_FRAMES * 1000) / 60;
    for (let t = 0; t < windowMs + 1_000; t += 250) {
      later(250);
      hub.report(out, { ...stale, layers: [] }); // alive, but still drawing the old frame
    }
    const alerts = raised.filter((r) => r.type === 'channel.unconfirmed');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      channelId: ch,
      data: { layer: 10, sceneId: 'sc_2', frames: UNCONFIRMED_FRAMES, outputs: 1 },
    });
    expect(h.engine.onAir(ch).program[0]!.sceneId).toBe('sc_2');
  });

  it('raises output.lost when a listed output closes, and counts refused pages per channel', async () => {
    const { hub, run, painted, raised } = await setup();
    await run({ kind: 'cut', sceneId: 'sc_1' });
    const silent = hub.open({ channelId: ch, address: 'a' });
    const out = hub.open({ channelId: ch, address: 'b' });
    hub.report(out, painted());
    hub.close(silent, 1001);
    hub.close(out, 1006);
    expect(raised.map((r) => [r.type, r.data.closeCode])).toEqual([
      ['output.connected', undefined],
      ['output.lost', 1006],
    ]);
    expect(hub.list(ch).data).toEqual([]);
    hub.refused(ch, '10.0.0.7');
    hub.refused(ch, '10.0.0.8');
    expect(hub.list(ch).refused).toMatchObject({ count: 2, lastAddress: '10.0.0.8' });
  });
});

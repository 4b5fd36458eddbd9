/**
 * The Companion module's actions (docs/companion.md, "Actions"), run through the built package's real default export
 * in the Companion stand-in against a real server: each one changes the server's state as its operation does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, type Event, type List } from '../helpers/api.js';
import { CompanionHost } from '../helpers/companion-host.js';
import { getSource } from '../helpers/data-sources.js';
import { startUpgradeGate } from '../helpers/upgrade-gate.js';
import { moduleConfig, startShow, untilLive, type Rundown, type Show } from './show.js';

let show: Show;

beforeEach(async () => {
  show = await startShow();
  await untilLive(show);
});

afterEach(async () => {
  await show.dispose();
});

/** The data sources the module's source actions offer, by id. */
const sourceChoices = (host: CompanionHost) => {
  const field = host.actions.source_refresh?.options.find((o) => o.id === 'source') as
    { choices?: { id: unknown }[] } | undefined;
  return (field?.choices ?? []).map((c) => c.id);
};

const onProgram = async () => (await show.state()).program.map((e) => e.sceneId);
const onPreview = async () => (await show.state()).preview.map((e) => e.sceneId);
const rundown = async () =>
  expectStatus(await show.call<Rundown>('GET', `/v1/channels/${show.channelId}/rundowns/${show.rundown.id}`), 200);
const events = async (type: string) =>
  expectStatus(await show.call<List<Event>>('GET', `/v1/events?channelId=${show.channelId}&type=${type}`), 200).data;

describe('playout', () => {
  it('cue, take, cut, toggle, clear (a scene, a layer), clear all, trigger, continue, update on air, undo', async () => {
    const { host, score, strap } = show;
    await host.runAction('cue', { scene: score.id });
    expect(await onPreview()).toEqual([score.id]);
    await host.runAction('take');
    expect(await onProgram()).toEqual([score.id]);
    expect(await onPreview()).toEqual([]);

    await host.runAction('trigger', { trigger: 'flashScoreA' });
    expect((await events('channel.trigger_fired')).map((e) => e.data.trigger)).toEqual(['flashScoreA']);

    // Toggle: off air, it goes on air on its layer (cue + take); on air, it leaves.
    await host.runAction('toggle_scene', { scene: strap.id });
    expect(await onProgram()).toEqual(expect.arrayContaining([strap.id, score.id]));
    await expect.poll(() => host.variables['Main.scene.Strap']).toBe('program');
    await host.runAction('toggle_scene', { scene: strap.id });
    expect(await onProgram()).toEqual([score.id]);

    // A scene typed by name, case aside, works as the dropdown's id does.
    await host.runAction('cut', { scene: 'strap' });
    expect(await onProgram()).toEqual(expect.arrayContaining([strap.id, score.id]));
    await host.runAction('update_on_air', { scene: strap.id, json: '{"name": "Cleo"}' });
    expect((await show.state()).program.find((e) => e.sceneId === strap.id)?.values).toMatchObject({ name: 'Cleo' });
    await host.runAction('continue', { layer: String(strap.layer) });
    expect((await events('channel.trigger_fired')).map((e) => e.data.trigger)).toContain('next');

    await host.runAction('clear', { scene: strap.id });
    expect(await onProgram()).toEqual([score.id]);
    await host.runAction('undo');
    expect(await onProgram()).toEqual(expect.arrayContaining([strap.id, score.id]));
    await host.runAction('clear', { layer: String(score.layer) });
    expect(await onProgram()).toEqual([strap.id]);
    await host.runAction('clear_all');
    expect(await onProgram()).toEqual([]);
  });

  it('a refused operation rejects with the server’s reason and changes nothing', async () => {
    await expect(show.host.runAction('take')).rejects.toThrow(/preview/i);
    expect(await onProgram()).toEqual([]);
  });
});

describe('inputs and clocks', () => {
  it('set, adjust (score ±1), set several (JSON), values from Companion variables', async () => {
    const { host } = show;
    await host.runAction('set_input', { input: 'home', value: 'LIONS' });
    await host.runAction('adjust_input', { input: 'scoreA', by: 1 });
    await host.runAction('adjust_input', { input: 'scoreA', by: 1 });
    await host.runAction('adjust_input', { input: 'scoreB', by: -1 });
    expect((await show.state()).inputs).toMatchObject({ home: 'LIONS', scoreA: 2, scoreB: -1 });
    await host.runAction('set_inputs_json', { json: '{"scoreB": 5, "away": "TIGERS"}' });
    expect((await show.state()).inputs).toMatchObject({ scoreB: 5, away: 'TIGERS' });

    // The variable has the value once the frame has come back over the socket.
    await expect.poll(() => host.variables['Main.input.scoreB']).toBe(5);
    await host.runAction('set_input', { input: 'scoreA', value: '$(onair:Main.input.scoreB)' });
    expect((await show.state()).inputs).toMatchObject({ scoreA: 5 });

    // A dropdown in expression mode: the scene named by a variable.
    expectStatus(await show.call('POST', `/v1/channels/${show.channelId}/program`, { sceneId: show.score.id }), 200);
    await expect.poll(() => host.variables['Main.program']).toBe('Score');
    await host.runAction('cue', { scene: { isExpression: true, value: '$(onair:Main.program)' } });
    expect(await onPreview()).toEqual([show.score.id]);
  });

  it('clock: start, stop, set, adjust, reset', async () => {
    const { host } = show;
    const clock = async () => (await show.state()).clocks.gameClock!;
    await host.runAction('clock', { clock: 'gameClock', action: 'start' });
    expect((await clock()).running).toBe(true);
    await host.runAction('clock', { clock: 'gameClock', action: 'stop' });
    expect((await clock()).running).toBe(false);
    await host.runAction('clock', { clock: 'gameClock', action: 'set', time: '5:00' });
    expect((await clock()).ms).toBe(300_000);
    await host.runAction('clock', { clock: 'gameClock', action: 'adjust', time: '-10' });
    expect((await clock()).ms).toBe(290_000);
    await expect.poll(() => host.variables['Main.clock.gameClock']).toBe('4:50');
    await host.runAction('clock', { clock: 'gameClock', action: 'reset' });
    expect(await clock()).toMatchObject({ running: false, ms: 720_000 });
  });
});

describe('rundowns and data sources', () => {
  it('next, previous, cue, play next, stop', async () => {
    const {
      host,
      rundown: { id, items },
    } = show;
    const [anna, ben] = items as [Rundown['items'][0], Rundown['items'][0]];
    expect((await rundown()).focus).toBe(anna.id);
    await host.runAction('rundown_next', { rundown: id });
    expect((await rundown()).focus).toBe(ben.id);
    await host.runAction('rundown_previous', { rundown: 'guests' });
    expect((await rundown()).focus).toBe(anna.id);

    await host.runAction('rundown_cue', { item: ben.id });
    expect((await show.state()).preview.map((e) => e.itemId)).toEqual([ben.id]);
    await host.runAction('rundown_play_next', { rundown: id });
    expect((await show.state()).program.map((e) => e.itemId)).toEqual([ben.id]);
    await host.runAction('rundown_stop', { rundown: id });
    expect((await show.state()).program).toEqual([]);
  });

  it('refresh, next row, previous row: ops on the socket, over REST only while it is down', async () => {
    const { server, source, call } = show;
    const gate = await startUpgradeGate(() => server.port);
    const host = new CompanionHost();
    try {
      await host.start({ ...moduleConfig(server), port: gate.port }, { apiKey: server.key });
      await expect.poll(() => host.status, { timeout: 20_000 }).toBe('ok');
      // Named, not picked by id: the module knows the source from the socket's `sources` message.
      await expect.poll(() => sourceChoices(host), { timeout: 20_000 }).toEqual([source.id]);
      await expect.poll(async () => (await show.state()).inputs.home).toBe('Lions');
      const fetchesBefore = show.feed.requests.length;
      await host.runAction('source_refresh', { source: 'Results' });
      expect(show.feed.requests.length).toBeGreaterThan(fetchesBefore);
      await host.runAction('source_row_next', { source: 'Results' });
      expect((await getSource(call, source)).status.cursor).toBe(2);
      expect((await show.state()).inputs).toMatchObject({ home: 'Bears', away: 'Wolves' });
      await host.runAction('source_row_previous', { source: source.id });
      expect((await getSource(call, source)).status.cursor).toBe(1);
      expect(gate.requests.filter((r) => r.includes('/sources'))).toEqual([]);

      gate.shut();
      await expect.poll(() => host.status, { timeout: 20_000 }).toBe('connection_failure');
      await host.runAction('source_row_next', { source: source.id });
      expect((await getSource(call, source)).status.cursor).toBe(2);
      expect(gate.requests.filter((r) => r.includes('/sources'))).toEqual([
        `POST /v1/channels/${show.channelId}/sources/${source.id}/row`,
      ]);
    } finally {
      await host.stop();
      await gate.close();
    }
  });
});

describe('the socket down, the server reachable', () => {
  it('actions go over REST, then over the socket again once it is back', async () => {
    const { server, score } = show;
    const gate = await startUpgradeGate(() => server.port);
    const host = new CompanionHost();
    try {
      await host.start({ ...moduleConfig(server), port: gate.port }, { apiKey: server.key });
      await expect.poll(() => host.variables['Main.scene.Score'], { timeout: 20_000 }).toBe('');
      gate.shut();
      await expect.poll(() => host.status, { timeout: 20_000 }).toBe('connection_failure');
      expect(host.variables.connected).toBe(false);
      await host.runAction('cue', { scene: score.id });
      expect(await onPreview()).toEqual([score.id]);

      gate.open();
      await expect.poll(() => host.status, { timeout: 20_000 }).toBe('ok');
      await expect.poll(() => host.variables['Main.scene.Score']).toBe('preview');
      await host.runAction('take');
      expect(await onProgram()).toEqual([score.id]);
    } finally {
      await host.stop();
      await gate.close();
    }
  });
});

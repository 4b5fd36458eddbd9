/**
 * The Companion module's live side (docs/companion.md): the built package as Companion loads it, feedbacks and
 * variables pushed from the server's state whoever changed it, statuses (a wrong key, a restarting server), and
 * definitions that follow the show (renamed scenes, a channel created later). The built package's real default
 * export runs in the Companion stand-in against a real server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InstanceStatus } from '@companion-module/base';
import { afterEach, describe, expect, it } from 'vitest';
import { expectStatus, tokenOf, type Channel, type Scene } from '../helpers/api.js';
import { CompanionHost, loadBuiltModule, PACKAGE_DIR } from '../helpers/companion-host.js';
import { startUpgradeGate } from '../helpers/upgrade-gate.js';
import { RenderClient } from '../helpers/ws-client.js';
import { moduleConfig, startShow, untilLive, type Show } from './show.js';

let show: Show | null = null;

afterEach(async () => {
  await show?.dispose();
  show = null;
});

const ACTIONS = [
  'take',
  'cue',
  'cut',
  'toggle_scene',
  'clear',
  'clear_all',
  'trigger',
  'continue',
  'set_input',
  'adjust_input',
  'set_inputs_json',
  'clock',
  'update_on_air',
  'rundown_next',
  'rundown_previous',
  'rundown_play_next',
  'rundown_cue',
  'rundown_stop',
  'undo',
  'source_refresh',
  'source_row_next',
  'source_row_previous',
];
const FEEDBACKS = [
  'scene_on_air',
  'scene_in_preview',
  'layer_on_air',
  'item_on_air',
  'input_equals',
  'clock_running',
  'output_unhealthy',
  'source_failing',
  'connection_lost',
  'input_value',
];

describe('the built package', () => {
  it('has a valid manifest, an installable tgz, no upgrade scripts yet, and the key as a secret', async () => {
    const { manifest, exports } = await loadBuiltModule();
    expect(manifest).toMatchObject({ id: 'onair', legacyIds: [], runtime: { type: 'node22', api: 'nodejs-ipc' } });
    expect(fs.existsSync(path.join(PACKAGE_DIR, 'companion/HELP.md'))).toBe(true);
    expect(fs.readdirSync(path.join(PACKAGE_DIR, '../..')).some((f) => /^onair-.*\.tgz$/.test(f))).toBe(true);
    expect(exports.UpgradeScripts).toEqual([]);
    expect(typeof exports.default).toBe('function');
  });

  it('defines every action and feedback by its stable id', async () => {
    show = await startShow();
    await untilLive(show);
    expect(Object.keys(show.host.actions).sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(show.host.feedbacks).sort()).toEqual([...FEEDBACKS].sort());
    const fields = show.host.instance!.getConfigFields();
    expect(fields.find((f) => f.id === 'apiKey')?.type).toBe('secret-text');
  });
});

describe('feedbacks and variables', () => {
  it('a take made by someone else over REST turns scene_on_air on and updates the variables', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, call, channelId, score } = show;
    const onAir = await host.placeFeedback('scene_on_air', { scene: score.id });
    const cued = await host.placeFeedback('scene_in_preview', { scene: 'Score' });
    const layer = await host.placeFeedback('layer_on_air', { layer: String(score.layer) });
    await expect.poll(() => host.feedback(onAir)).toBe(false);

    expectStatus(await call('POST', `/v1/channels/${channelId}/preview`, { sceneId: score.id }), 200);
    await expect.poll(() => host.feedback(cued)).toBe(true);
    expect(host.variables['Main.preview']).toBe('Score');
    expectStatus(await call('POST', `/v1/channels/${channelId}/take`), 200);
    await expect.poll(() => host.feedback(onAir)).toBe(true);
    await expect.poll(() => host.feedback(cued)).toBe(false);
    expect(host.feedback(layer)).toBe(true);
    expect(host.variables).toMatchObject({
      'Main.program': 'Score',
      'Main.preview': '',
      [`Main.program.layer_${score.layer}`]: 'Score',
      'Main.scene.Score': 'program',
      connected: true,
    });
    expect(host.variables['Main.frame']).toBe((await show.state()).frame);
  });

  it('re-checks only the feedbacks of the kinds a frame touched', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, call, channelId } = show;
    const equals = await host.placeFeedback('input_equals', { input: 'scoreA', comparison: 'ge', value: '3' });
    const value = await host.placeFeedback('input_value', { input: 'scoreA' });
    await expect.poll(() => host.feedback(value)).toBe(0);
    host.checkedTypes = [];
    expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 3 }), 200);
    await expect.poll(() => host.feedback(equals)).toBe(true);
    expect(host.feedback(value)).toBe(3);
    expect(new Set(host.checkedTypes)).toEqual(new Set(['input_equals', 'input_value']));
  });

  it('items, clocks (ticked locally), sources and outputs', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, call, channelId, rundown, source } = show;
    const item = await host.placeFeedback('item_on_air', { item: rundown.items[0]!.id });
    const running = await host.placeFeedback('clock_running', { clock: 'gameClock' });
    const failing = await host.placeFeedback('source_failing', { source: 'Results' });
    const unhealthy = await host.placeFeedback('output_unhealthy', { none: true });
    expect(host.feedback(unhealthy)).toBe(true);

    expectStatus(await call('POST', `/v1/channels/${channelId}/rundowns/${rundown.id}/play-next`), 200);
    await expect.poll(() => host.feedback(item)).toBe(true);
    expect(host.variables['Main.rundown.Guests.focus']).toBe('Ben Carr');
    expect(host.variables['Main.rundown.Guests.next']).toBe('Ben Carr');

    // A running clock moves in its variable with no message from the server.
    expectStatus(await call('POST', `/v1/channels/${channelId}/clocks/gameClock`, { action: 'start' }), 200);
    await expect.poll(() => host.feedback(running)).toBe(true);
    const frame = host.variables['Main.frame'];
    await expect.poll(() => host.variables['Main.clock.gameClock']).toMatch(/^11:5[0-8]$/);
    expect(host.variables['Main.frame']).toBe(frame);

    show.feed.route('/results.csv', (_req, res) => res.writeHead(500).end('down'));
    await expect(host.runAction('source_refresh', { source: source.id })).resolves.toBeUndefined();
    await expect.poll(() => host.feedback(failing)).toBe(true);

    const channel = expectStatus(await call<Channel>('GET', `/v1/channels/${channelId}`), 200);
    const page = await RenderClient.connect(show.server.url, channelId, { token: tokenOf(channel.outputUrl) });
    const report = { op: 'painted', frame: (await show.state()).frame, layers: [], fps: 60, width: 1280, height: 720 };
    page.send({ ...report, kind: 'browser', bus: 'program' });
    await expect.poll(() => host.variables['Main.outputs']).toBe('ok');
    expect(host.feedback(unhealthy)).toBe(false);
    page.send({ ...report, errors: [{ message: 'image failed', url: null }] });
    await expect.poll(() => host.variables['Main.outputs']).toBe('error');
    expect(host.feedback(unhealthy)).toBe(true);
    page.close();
  });
});

describe('data sources, pushed', () => {
  it('a source failing turns source_failing on, with no REST read of the sources by the module', async () => {
    show = await startShow();
    await untilLive(show);
    const { server, call, channelId, source } = show;
    const gate = await startUpgradeGate(() => server.port);
    const host = new CompanionHost();
    try {
      await host.start({ ...moduleConfig(server), port: gate.port }, { apiKey: server.key });
      await expect.poll(() => host.status, { timeout: 20_000 }).toBe('ok');
      const failing = await host.placeFeedback('source_failing', { source: 'Results' });
      await expect.poll(() => host.feedback(failing), { timeout: 20_000 }).toBe(false);
      // Someone else makes the source fetch now, over REST, not through the module's gate.
      show.feed.route('/results.csv', (_req, res) => res.writeHead(500).end('down'));
      expectStatus(await call('POST', `/v1/channels/${channelId}/sources/${source.id}/refresh`), 200);
      await expect.poll(() => host.feedback(failing), { timeout: 20_000 }).toBe(true);
      expect(gate.requests.filter((r) => r.includes('/sources'))).toEqual([]);

      // Deleted elsewhere: the source is gone from the module's choices.
      expectStatus(await call('DELETE', `/v1/channels/${channelId}/sources/${source.id}`), 204);
      await expect
        .poll(() => JSON.stringify(host.feedbacks.source_failing?.options), { timeout: 20_000 })
        .not.toContain(source.id);
      expect(gate.requests.filter((r) => r.includes('/sources'))).toEqual([]);
    } finally {
      await host.stop();
      await gate.close();
    }
  });
});

describe('connection', () => {
  it('a wrong key gives authentication failure', async () => {
    show = await startShow({ key: 'onair_sk_WrongKey0123456789abcdefghijklmnopq' });
    await expect.poll(() => show!.host.status, { timeout: 20_000 }).toBe('authentication_failure');
    expect(show.host.variables.connected).toBe(false);
  });

  it('a key revoked while connected (close 4001) gives authentication failure', async () => {
    show = await startShow();
    const { call, server } = show;
    const permissions = ['channels:read', 'playout:write', 'inputs:write'];
    const key = expectStatus(
      await call<{ id: string; secret: string }>('POST', '/v1/keys', { name: 'deck', permissions }),
      201,
    );
    const deck = new CompanionHost();
    try {
      await deck.start(moduleConfig(server), { apiKey: key.secret });
      await expect.poll(() => deck.status, { timeout: 20_000 }).toBe('ok');
      expectStatus(await call('DELETE', `/v1/keys/${key.id}`), 204);
      await expect.poll(() => deck.status, { timeout: 20_000 }).toBe('authentication_failure');
      expect(
        deck.statuses.some((x) => x.status === InstanceStatus.AuthenticationFailure && /4001/.test(x.message ?? '')),
      ).toBe(true);
    } finally {
      await deck.stop();
    }
  });

  it('the server restarting gives connecting, then ok, with the feedbacks right again', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, server, call, channelId, score } = show;
    const onAir = await host.placeFeedback('scene_on_air', { scene: score.id });
    const lost = await host.placeFeedback('connection_lost');
    expectStatus(await call('POST', `/v1/channels/${channelId}/program`, { sceneId: score.id }), 200);
    await expect.poll(() => host.feedback(onAir)).toBe(true);

    await server.stop();
    await expect.poll(() => host.feedback(lost), { timeout: 20_000 }).toBe(true);
    expect(host.variables.connected).toBe(false);
    const before = host.statuses.length;
    await server.restart();
    await expect.poll(() => host.status, { timeout: 30_000 }).toBe('ok');
    expect(host.statuses.slice(before).map((s) => s.status)).toContain('connecting');
    await expect.poll(() => host.feedback(lost)).toBe(false);
    expect(host.feedback(onAir)).toBe(true);
    expectStatus(await call('POST', `/v1/channels/${channelId}/clear`), 200);
    await expect.poll(() => host.feedback(onAir)).toBe(false);
  });
});

describe('definitions follow the show', () => {
  it('a renamed scene refreshes the dropdowns and the variable definitions', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, call, channelId, score } = show;
    const sceneChoices = () => {
      const field = host.actions.cue!.options.find((o) => o.id === 'scene') as {
        choices: { id: string; label: string }[];
      };
      return field.choices;
    };
    expect(sceneChoices()).toContainEqual({ id: score.id, label: 'Score' });
    const current = expectStatus(await call<Scene>('GET', `/v1/channels/${channelId}/scenes/${score.id}`), 200);
    expectStatus(
      await call('PUT', `/v1/channels/${channelId}/scenes/${score.id}`, {
        name: 'Scoreboard',
        definition: current.definition,
      }),
      200,
    );
    await expect.poll(() => sceneChoices()).toContainEqual({ id: score.id, label: 'Scoreboard' });
    expect(host.variableDefinitions).toHaveProperty(['Main.scene.Scoreboard']);
    expect(host.variableDefinitions).not.toHaveProperty(['Main.scene.Score']);
    expect(host.presets[`Main.scene.${score.id}`]?.name).toBe('Scoreboard');
  });

  it('follows every channel the key may see on one socket, a channel created later too, or only those chosen', async () => {
    show = await startShow();
    await untilLive(show);
    const { host, call, server } = show;
    const second = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Studio B' }), 201);
    expectStatus(await call('POST', `/v1/channels/${second.id}/scenes`, { name: 'Bug', template: 'logo-bug' }), 201);
    await expect.poll(() => host.variableDefinitions).toHaveProperty(['Studio_B.scene.Bug']);
    await host.runAction('cut', { scene: 'Bug' });
    expect((await call<{ program: unknown[] }>('GET', `/v1/channels/${second.id}/state`)).body.program).toHaveLength(1);
    expect(host.presetSections.map((s) => s.name)).toEqual(['Main', 'Studio B']);

    const only = new CompanionHost();
    await only.start(moduleConfig(server, second.id), { apiKey: server.key });
    try {
      await expect.poll(() => only.variableDefinitions).toHaveProperty(['Studio_B.scene.Bug']);
      expect(Object.keys(only.variableDefinitions).some((id) => id.startsWith('Main.'))).toBe(false);
    } finally {
      await only.stop();
    }

    // A channel deleted leaves the socket (channel_removed): its variables and presets go.
    expectStatus(await call('DELETE', `/v1/channels/${second.id}`), 204);
    await expect.poll(() => host.variableDefinitions).not.toHaveProperty(['Studio_B.scene.Bug']);
    expect(host.presetSections.map((s) => s.name)).toEqual(['Main']);
  });
});

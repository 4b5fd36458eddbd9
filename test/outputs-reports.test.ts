/**
 * Output pages' reports over the real render socket (docs/outputs.md), sent here by a plain WebSocket client holding
 * an output token, as a page or a forger would: the channel's outputs list and the `outputs` message show what it
 * painted; a forged report (a frame never sent, another channel's scene, huge strings, a flood) is dropped or clipped
 * and counted, and changes nothing for another channel; a key cannot report; a refused token is shown; the output
 * events raised are counted in /metrics.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, getState, type Api, type Event } from './helpers/api.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, UpgradeRefused, type ServerMessage } from './helpers/ws-client.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

interface Output {
  id: string;
  kind: string;
  bus: string;
  paintedFrame: number;
  lagFrames: number;
  health: string;
  visible: boolean | null;
  layers: { layer: number; sceneId: string; itemId: string | null; inDone: boolean }[];
  errors: { at: string; message: string; url: string | null }[];
}
interface OutputList {
  data: Output[];
  nextCursor: null;
  refused: { count: number; lastAt: string; lastAddress: string } | null;
}

let server: TestServer;
let call: Api;
const clients: RenderClient[] = [];

beforeEach(async () => {
  server = await startTestServer({}, { ONAIR_METRICS_TOKEN: METRICS_TOKEN });
  call = api(server.url, server.key);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.dispose();
});

async function connect(channelId: string, auth: { token?: string; key?: string }): Promise<RenderClient> {
  const client = await RenderClient.connect(server.url, channelId, auth);
  clients.push(client);
  await client.next((m) => m.type === 'snapshot');
  return client;
}

const outputsOf = async (channelId: string) =>
  expectStatus(await call<OutputList>('GET', `/v1/channels/${channelId}/outputs`), 200);

/** A report of what is on program now, as the output page sends it. */
async function painted(channelId: string, extra: Record<string, unknown> = {}) {
  const state = await getState(call, channelId);
  return {
    op: 'painted',
    frame: state.frame,
    layers: state.program.map((e) => ({ layer: e.layer, sceneId: e.sceneId, itemId: e.itemId, inDone: true })),
    fps: 60,
    width: 1280,
    height: 720,
    kind: 'browser',
    bus: 'program',
    ...extra,
  };
}

/** A counter family of the /metrics scrape, by the value of its one label. */
async function scraped(name: string, label: string): Promise<Record<string, number>> {
  const res = await call<string>('GET', '/metrics', undefined, {
    noAuth: true,
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const family = parsePrometheusText(res.body).get(name);
  return Object.fromEntries((family?.samples ?? []).map((s) => [s.labels[label]!, s.value]));
}

const rejected = () => scraped('onair_output_reports_rejected_total', 'reason');
const raised = () => scraped('onair_output_events_total', 'type');

const events = async (channelId: string, type: string) =>
  expectStatus(await call<{ data: Event[] }>('GET', `/v1/events?channelId=${channelId}&type=${type}`), 200).data;

describe('output reports', () => {
  it('list the output with what it painted; keys follow the outputs message, the page never gets it', async () => {
    const { channelId, sceneId, token } = await createChannelWithScoreboard(call);
    const page = await connect(channelId, { token });
    const operator = await connect(channelId, { key: server.key });
    expect((await outputsOf(channelId)).data).toEqual([]);
    page.send(await painted(channelId));
    await expect.poll(async () => (await outputsOf(channelId)).data, { timeout: 10_000 }).toHaveLength(1);
    const [output] = (await outputsOf(channelId)).data;
    expect(output).toMatchObject({
      kind: 'browser',
      bus: 'program',
      paintedFrame: (await getState(call, channelId)).frame,
      lagFrames: 0,
      health: 'ok',
      visible: null,
      layers: [{ layer: 10, sceneId, itemId: null, inDone: true }],
    });
    expect(output!.id).toMatch(/^out_/);
    const message = await operator.next((m) => (m.type as string) === 'outputs');
    expect(message).toMatchObject({ channelId, total: 1, outputs: [{ id: output!.id }], refused: null });
    expect(page.messages.some((m: ServerMessage) => (m.type as string) === 'outputs')).toBe(false);
    await expect.poll(() => events(channelId, 'output.connected'), { timeout: 10_000 }).toHaveLength(1);
    page.close();
    await expect.poll(() => events(channelId, 'output.lost'), { timeout: 10_000 }).toHaveLength(1);
    const [lost] = await events(channelId, 'output.lost');
    expect(lost!.data).toMatchObject({ outputId: output!.id, source: 'output', actor: { type: 'system' } });
    expect((await outputsOf(channelId)).data).toEqual([]);
  });

  it('count the output.connected and output.lost they raise in onair_output_events_total', async () => {
    const { channelId, token } = await createChannelWithScoreboard(call);
    const before = await raised();
    const page = await connect(channelId, { token });
    page.send(await painted(channelId));
    await expect.poll(() => events(channelId, 'output.connected'), { timeout: 10_000 }).toHaveLength(1);
    page.close();
    await expect.poll(() => events(channelId, 'output.lost'), { timeout: 10_000 }).toHaveLength(1);
    const after = await raised();
    const more = (type: string) => (after[type] ?? 0) - (before[type] ?? 0);
    expect({ connected: more('output.connected'), lost: more('output.lost') }).toEqual({ connected: 1, lost: 1 });
  });

  it('drop forged reports, clip huge ones, count them, and never touch another channel', async () => {
    const a = await createChannelWithScoreboard(call, 'A');
    const b = await createChannelWithScoreboard(call, 'B');
    const page = await connect(a.channelId, { token: a.token });
    const forger = await connect(b.channelId, { token: b.token });
    const before = await rejected();

    // A frame the channel never sent, and B's scene reported by B's page as if it were on A: neither lists anything.
    forger.send(await painted(b.channelId, { frame: (await getState(call, b.channelId)).frame + 10_000 }));
    page.send(await painted(a.channelId, { layers: (await painted(b.channelId)).layers }));
    await expect.poll(async () => (await outputsOf(a.channelId)).data.length, { timeout: 10_000 }).toBe(1);
    expect((await outputsOf(a.channelId)).data[0]!.layers).toEqual([]);
    expect((await outputsOf(b.channelId)).data).toEqual([]);

    // Huge strings: clipped, the token taken out.
    const url = `${server.url}/assets/missing.png?channel=${a.channelId}&token=${a.token}`;
    const huge = { message: 'x'.repeat(30_000), url: `${url}&pad=${'y'.repeat(20_000)}` };
    await new Promise((r) => setTimeout(r, 1_100));
    page.send(await painted(a.channelId, { errors: [huge] }));
    await expect.poll(async () => (await outputsOf(a.channelId)).data[0]?.errors.length, { timeout: 10_000 }).toBe(1);
    const [error] = (await outputsOf(a.channelId)).data[0]!.errors;
    expect(error!.message).toHaveLength(300);
    expect(error!.url!.length).toBeLessThanOrEqual(1_000);
    expect(JSON.stringify(await outputsOf(a.channelId))).not.toContain(a.token);

    // A flood: 200 reports at once; at most 5 a second are taken.
    const report = JSON.stringify(await painted(a.channelId));
    for (let i = 0; i < 200; i++) page.sendText(report);
    await expect.poll(async () => (await rejected()).flood ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(190);
    const after = await rejected();
    const more = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect({ frameAhead: more('frame_ahead'), notOnBus: more('not_on_bus'), clipped: more('clipped') }).toEqual({
      frameAhead: 1,
      notOnBus: 1,
      clipped: 1,
    });
    expect((await outputsOf(b.channelId)).data).toEqual([]);
    expect(await page.collectFor(200)).not.toContainEqual(expect.objectContaining({ type: 'error' }));
  });

  it('refuse a report from a key, and show a page refused for its token', async () => {
    const { channelId, token } = await createChannelWithScoreboard(call);
    const operator = await connect(channelId, { key: server.key });
    operator.send(await painted(channelId));
    expect(await operator.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', id: null });
    expect((await outputsOf(channelId)).data).toEqual([]);

    const stale = RenderClient.connect(server.url, channelId, { token: `${token}x` });
    await expect(stale).rejects.toBeInstanceOf(UpgradeRefused);
    const { refused } = await outputsOf(channelId);
    expect(refused).toMatchObject({ count: 1, lastAddress: '127.0.0.1' });
    expect(await operator.next((m) => (m.type as string) === 'outputs')).toMatchObject({ refused: { count: 1 } });
  });
});

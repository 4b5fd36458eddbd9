/**
 * GET /metrics after a short workload (REST on the fast PATCH route and through Hono, WebSocket renderers
 * and an API-key client, a rate-limit refusal), parsed with a strict Prometheus text-format parser:
 * every family is there with sane values, routes are labelled by template, and each server has its own
 * registry.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Registry } from 'prom-client';
import { FAST_PATCH_ROUTE } from '../src/api/inputs/fast-patch.js';
import { UNMATCHED_ROUTE } from '../src/api/middleware/request-context.js';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { RequestHistogram } from '../src/metrics/request-histogram.js';
import { api, createChannelWithScoreboard, expectStatus, patchInputs, type Api } from './helpers/api.js';
import { histogram, parsePrometheusText, seriesOf, valueOf, type Family } from './helpers/prometheus-text.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { RenderClient } from './helpers/ws-client.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

const handles: ServerHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** ONAIR_DB_SYNC=full (the production default) so the WAL is flushed and its histogram fills. */
async function start(env: Record<string, string> = {}): Promise<{ handle: ServerHandle; call: Api }> {
  const dir = makeDataDir();
  dirs.push(dir);
  const handle = await startServer(loadConfig({ ...serverEnv(dir), ONAIR_DB_SYNC: 'full', ...env }));
  handles.push(handle);
  return { handle, call: api(handle.baseUrl, TEST_KEY) };
}

async function scrape(call: Api): Promise<Map<string, Family>> {
  const res = await call<string>('GET', '/metrics', undefined, {
    noAuth: true,
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(res.body);
}

function family(families: Map<string, Family>, name: string, type: Family['type']): Family {
  const f = families.get(name);
  expect(f, `${name} is exposed`).toBeDefined();
  expect(f!.type, `${name} is a ${type}`).toBe(type);
  expect(f!.help, `${name} has a HELP line`).not.toBe('');
  return f!;
}

describe('GET /metrics', () => {
  it('needs ONAIR_METRICS_TOKEN when one is set', async () => {
    const { call } = await start({ ONAIR_METRICS_TOKEN: METRICS_TOKEN });
    expect((await call('GET', '/metrics', undefined, { noAuth: true })).status).toBe(401);
    expect((await call('GET', '/metrics')).status).toBe(401); // an API key is not the metrics token
    await scrape(call);
  });

  it('after a short workload, every family is present with sane values', async () => {
    const { handle, call } = await start({ ONAIR_METRICS_TOKEN: METRICS_TOKEN });
    const { channelId, token } = await createChannelWithScoreboard(call);
    const renderer = await RenderClient.connect(handle.baseUrl, channelId, { token });
    const control = await RenderClient.connect(handle.baseUrl, channelId, { key: TEST_KEY });
    for (let i = 1; i <= 5; i++) await patchInputs(call, channelId, { scoreA: i });
    control.send({ op: 'patch', id: 'w1', inputs: { scoreB: 1 } });
    await control.reply('w1');
    expectStatus(await call('GET', `/v1/channels/${channelId}`), 200);
    expect((await call('GET', `/no/such/${channelId}`)).status).toBe(404);
    // The updates bucket admits 30 per second per channel: 40 at once are partly refused.
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreB: i })),
    );
    expect(burst.some((r) => r.status === 429)).toBe(true);
    // Five wrong passwords are counted as failures; the sixth at once is refused by the throttle.
    const signIn = { email: 'nobody@example.com', password: 'not a password' };
    for (let i = 0; i < 6; i++) await call('POST', '/v1/auth/login', signIn, { noAuth: true });
    await renderer.until(() => (renderer.mirror?.inputs.scoreA === 5 ? true : undefined));
    churnGarbage();

    const m = await vi.waitFor(
      async () => {
        const families = await scrape(call);
        // GC pauses are reported asynchronously by a PerformanceObserver.
        expect(histogramCount(families.get('nodejs_gc_duration_seconds'))).toBeGreaterThan(0);
        return families;
      },
      { timeout: 15_000 },
    );
    checkHttp(m, channelId);
    checkEngineAndStorage(m);
    checkSockets(m);
    checkProcess(m);
    expect(valueOf(family(m, 'onair_rate_limited_total', 'counter'), { bucket: 'updates' })).toBeGreaterThan(0);
    expect(valueOf(family(m, 'onair_build_info', 'gauge'), { version: VERSION })).toBe(1);
    expect(valueOf(family(m, 'onair_login_failures_total', 'counter'))).toBe(5);
    expect(valueOf(family(m, 'onair_login_throttled_total', 'counter'))).toBe(1);
    expect(valueOf(family(m, 'onair_log_lines_dropped_total', 'counter'))).toBeGreaterThanOrEqual(0);

    renderer.close();
    control.close();
    await vi.waitFor(
      async () => {
        const after = family(await scrape(call), 'onair_connections', 'gauge');
        expect(valueOf(after, { kind: 'output' })).toBe(0);
        expect(valueOf(after, { kind: 'key' })).toBe(0);
      },
      { timeout: 15_000 },
    );
  });

  it('each server counts in its own registry', async () => {
    const a = await start({ ONAIR_METRICS_TOKEN: METRICS_TOKEN });
    const { channelId } = await createChannelWithScoreboard(a.call);
    await patchInputs(a.call, channelId, { scoreA: 1 });
    const b = await start({ ONAIR_METRICS_TOKEN: METRICS_TOKEN });
    const patchesOf = async (call: Api) =>
      valueOf(family(await scrape(call), 'onair_patches_applied_total', 'counter'));
    expect(await patchesOf(a.call)).toBe(1);
    expect(await patchesOf(b.call)).toBe(0);
  });
});

function checkHttp(m: Map<string, Family>, channelId: string): void {
  const http = family(m, 'onair_http_request_duration_seconds', 'histogram');
  const fast = histogram(http, { route: FAST_PATCH_ROUTE, method: 'PATCH', status: '200' });
  expect(fast.count).toBeGreaterThanOrEqual(5);
  expect(fast.sum).toBeGreaterThan(0);
  expect(histogram(http, { route: FAST_PATCH_ROUTE, method: 'PATCH', status: '429' }).count).toBeGreaterThan(0);
  expect(histogram(http, { route: '/v1/channels/:id', method: 'GET', status: '200' }).count).toBe(1);
  expect(histogram(http, { route: UNMATCHED_ROUTE, method: 'GET', status: '404' }).count).toBe(1);
  expect(histogram(http, { route: '/v1/channels', method: 'POST', status: '201' }).count).toBe(1);
  // Templates only: no label carries an id a client chose.
  for (const labels of seriesOf(http)) expect(JSON.stringify(labels)).not.toContain(channelId);
}

function checkEngineAndStorage(m: Map<string, Family>): void {
  const tick = histogram(family(m, 'onair_tick_duration_seconds', 'histogram'), { fps: '60' });
  expect(tick.count).toBeGreaterThan(0);
  expect(tick.sum / tick.count).toBeLessThan(1);
  expect(valueOf(family(m, 'onair_ticks_total', 'counter'), { fps: '60' })).toBeGreaterThanOrEqual(tick.count);
  expect(valueOf(family(m, 'onair_late_ticks_total', 'counter'), { fps: '60' })).toBeGreaterThanOrEqual(0);
  expect(valueOf(family(m, 'onair_skipped_frames_total', 'counter'), { fps: '60' })).toBeGreaterThanOrEqual(0);
  expect(valueOf(family(m, 'onair_ticks_with_changes_total', 'counter'))).toBeGreaterThan(0);
  expect(valueOf(family(m, 'onair_frames_published_total', 'counter'))).toBeGreaterThan(0);
  expect(valueOf(family(m, 'onair_patches_applied_total', 'counter'))).toBeGreaterThanOrEqual(6);
  const write = histogram(family(m, 'onair_tick_write_duration_seconds', 'histogram'), {});
  expect(write.count).toBeGreaterThan(0);
  expect(write.sum).toBeGreaterThan(0);
  expect(histogram(family(m, 'onair_wal_flush_duration_seconds', 'histogram'), {}).count).toBeGreaterThan(0);
  expect(valueOf(family(m, 'onair_storage_failed', 'gauge'))).toBe(0);
}

function checkSockets(m: Map<string, Family>): void {
  const connections = family(m, 'onair_connections', 'gauge');
  expect(valueOf(connections, { kind: 'output' })).toBe(1);
  expect(valueOf(connections, { kind: 'key' })).toBe(1);
  expect(valueOf(connections, { kind: 'session' })).toBe(0);
  const messages = family(m, 'onair_ws_messages_sent_total', 'counter');
  const bytes = family(m, 'onair_ws_sent_bytes_total', 'counter');
  // Two clients: one snapshot each at least, every frame twice, one reply to the op.
  expect(valueOf(messages, { type: 'snapshot' })).toBeGreaterThanOrEqual(2);
  expect(valueOf(messages, { type: 'frame' })).toBeGreaterThanOrEqual(12);
  expect(valueOf(messages, { type: 'reply' })).toBe(1);
  for (const type of ['snapshot', 'frame', 'reply'])
    expect(valueOf(bytes, { type })).toBeGreaterThan(10 * valueOf(messages, { type })!);
}

function checkProcess(m: Map<string, Family>): void {
  expect(valueOf(family(m, 'process_resident_memory_bytes', 'gauge'))).toBeGreaterThan(10 * 1024 * 1024);
  expect(valueOf(family(m, 'nodejs_eventloop_lag_seconds', 'gauge'))).toBeGreaterThanOrEqual(0);
  expect(valueOf(family(m, 'nodejs_eventloop_lag_p99_seconds', 'gauge'))).toBeGreaterThanOrEqual(0);
  expect(valueOf(family(m, 'process_cpu_seconds_total', 'counter'))).toBeGreaterThan(0);
}

function histogramCount(f: Family | undefined): number {
  if (!f) return 0;
  return seriesOf(f).reduce((n, labels) => n + histogram(f, labels).count, 0);
}

/** Enough short-lived garbage for a young-generation collection. */
function churnGarbage(): void {
  let keep = 0;
  for (let i = 0; i < 200_000; i++) keep += [i, { i }].length;
  expect(keep).toBe(400_000);
}

describe('the request histogram', () => {
  async function exposition(observe: (h: RequestHistogram) => void): Promise<Family> {
    const registry = new Registry();
    observe(new RequestHistogram('req_seconds', 'Requests.', [0.01, 0.1]).register(registry));
    return parsePrometheusText(await registry.metrics()).get('req_seconds')!;
  }

  it('counts each observation in its bucket, cumulatively, with sum and count', async () => {
    const f = await exposition((h) => {
      for (const s of [0.005, 0.01, 0.05, 3]) h.observe('/a/:id', 'GET', 200, s);
    });
    const h = histogram(f, { route: '/a/:id', method: 'GET', status: '200' });
    expect([...h.buckets]).toEqual([
      [0.01, 2],
      [0.1, 3],
      [Infinity, 4],
    ]);
    expect(h.count).toBe(4);
    expect(h.sum).toBeCloseTo(3.065);
  });

  it('keeps series apart by route, method and status; folds unknown methods into one', async () => {
    const f = await exposition((h) => {
      h.observe('/a', 'GET', 200, 0.001);
      h.observe('/a', 'GET', 404, 0.001);
      h.observe('/a', 'POST', 200, 0.001);
      h.observe('/b', 'GET', 200, 0.001);
      h.observe('/a', 'BREW', 200, 0.001);
      h.observe('/a', 'MKCOL', 200, 0.001);
    });
    expect(seriesOf(f)).toHaveLength(5);
    expect(histogram(f, { route: '/a', method: 'other', status: '200' }).count).toBe(2);
  });

  it('escapes route templates the router allows (a regex with a backslash)', async () => {
    const route = '/:file{[A-Za-z0-9_-]+\\.(?:js|css)}';
    const f = await exposition((h) => h.observe(route, 'GET', 200, 0.001));
    expect(seriesOf(f)).toEqual([{ route, method: 'GET', status: '200' }]);
  });
});

describe('the test parser is strict', () => {
  const valid = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 2\n';

  it('reads a valid exposition', () => {
    expect(valueOf(parsePrometheusText(valid).get('a_total')!, { x: '1' })).toBe(2);
  });

  it.each([
    ['a sample without TYPE', 'a 1\n'],
    ['a malformed line', `${valid}garbage here now\n`],
    ['a sample of another family', `${valid}b_total 1\n`],
    ['a duplicate series', `${valid}a_total{x="1"} 3\n`],
    ['unquoted label values', '# TYPE a gauge\na{x=1} 1\n'],
    ['a value that is not a number', '# TYPE a gauge\na abc\n'],
    [
      'buckets that are not cumulative',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
    ],
    ['a +Inf bucket unlike _count', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n'],
  ])('rejects %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

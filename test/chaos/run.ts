/**
 * One crash run: a real server (a child process on a fresh data dir) takes PATCHes, incoming-hook posts, clock ops
 * and playout ops on three channels, every event going to an outgoing webhook subscription on a local HTTPS
 * receiver, and is killed with SIGKILL at random moments, then started again on the same data dir (on a new port,
 * which the clients follow). Answers the problems found (model.ts has the rules) and a short report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeDataDir, serverEnv, TEST_KEY } from '../helpers/server.js';
import { spawnServer, type ChildServer } from '../helpers/spawn-server.js';
import { testCertificate, verifyDelivery, type Received } from '../helpers/webhook-receiver.js';
import { driveChannel, playoutOnce, Target, type ChannelFixture, type LoadContext } from './load.js';
import {
  checkAnswer,
  checkDeliveries,
  checkEvents,
  checkSurvival,
  observe,
  uncertainApplied,
  type DeliveryLogEntry,
  type EventLike,
  type Observed,
  type StateLike,
} from './model.js';
import { startLyingProxy, type LyingProxy } from './proxy.js';
import { makeRng } from './random.js';
import { startChaosReceiver } from './receiver.js';

export interface ChaosOptions {
  seed: number;
  kills: number;
  channels?: number;
  /** Put the lying proxy (proxy.ts) between the clients and the server: a broken server, to be caught. */
  lying?: boolean;
  /** How long the receiver may take to get every committed event after the last restart. */
  settleMs?: number;
}

export interface ChaosResult {
  problems: string[];
  report: string;
  /** The load before each kill, in ms. */
  kills: number[];
  /** Where the data and the server's log are: kept (not deleted) when there are problems. */
  dir: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { seed, kills: killCount, channels: channelCount = 3, lying = false, settleMs = 60_000 } = options;
  const began = Date.now();
  const rng = makeRng(seed);
  const dir = makeDataDir();
  const caFile = path.join(dir, 'receiver-ca.pem');
  fs.writeFileSync(caFile, (await testCertificate()).cert);
  const serverLog = fs.createWriteStream(path.join(dir, 'server.log'));
  const receiver = await startChaosReceiver();
  const proxy: LyingProxy | null = lying ? await startLyingProxy(() => rng.int(20, 80)) : null;
  const target = new Target(TEST_KEY);
  let child: ChildServer | null = null;
  let keep = false;
  let epoch = 0;

  const startServer = async (): Promise<ChildServer> => {
    serverLog.write(`---- start ${epoch}\n`);
    const started = await spawnServer({
      ...serverEnv(dir),
      ONAIR_LOG_LEVEL: 'info',
      ONAIR_DB_SYNC: 'full',
      ONAIR_WEBHOOK_ALLOW_PRIVATE: '1',
      NODE_EXTRA_CA_CERTS: caFile,
      ONAIR_WEBHOOK_RETRY_DELAYS_MS: '200,500',
      ONAIR_WEBHOOK_TIMEOUT_MS: '3000',
    });
    started.process.stdout?.on('data', (d: Buffer) => serverLog.write(d));
    started.process.stderr?.on('data', (d: Buffer) => serverLog.write(d));
    target.url = proxy ? proxy.url : started.url;
    if (proxy) proxy.upstream = started.url;
    return started;
  };

  const ctx: LoadContext = { target, rng, epoch: 0, active: true, records: [], anomalies: [] };
  try {
    child = await startServer();

    // ---- setup: a subscription for every event; channels with two scenes (on layers 10 and 20) and a hook each
    const sub = await target.expect<{ id: string; secret: string }>(201, 'POST', '/v1/webhooks', {
      url: receiver.url,
      events: [],
      description: 'chaos',
    });
    const channels: ChannelFixture[] = [];
    for (let i = 1; i <= channelCount; i++) {
      const ch = await target.expect<{ id: string }>(201, 'POST', '/v1/channels', { name: `Chaos ${i}` });
      const scenes = [];
      for (const template of ['scoreboard', 'lower-third']) {
        const s = await target.expect<{ id: string; layer: number }>(201, 'POST', `/v1/channels/${ch.id}/scenes`, {
          name: template,
          template,
        });
        scenes.push({ sceneId: s.id, layer: s.layer });
      }
      const hook = await target.expect<{ url: string }>(201, 'POST', `/v1/channels/${ch.id}/incoming-hooks`, {
        name: 'chaos',
        mapping: { 'game.away.score': 'scoreB', period: 'period' },
      });
      const fixture: ChannelFixture = {
        channelId: ch.id,
        scenes,
        hookToken: new URL(hook.url).pathname.split('/').at(-1)!,
        patchN: 0,
        hookN: 0,
      };
      const onAir = await playoutOnce(ctx, fixture, { program: {}, preview: {} }, { kind: 'program', ...scenes[0]! });
      if (onAir.outcome !== 'acked') throw new Error(`setup: could not put ${scenes[0]!.sceneId} on air`);
      channels.push(fixture);
    }

    const observeAll = async (): Promise<Map<string, Observed>> => {
      const out = new Map<string, Observed>();
      for (const ch of channels) {
        const state = await target.expect<StateLike>(200, 'GET', `/v1/channels/${ch.channelId}/state`);
        out.set(ch.channelId, observe(state));
      }
      return out;
    };

    // ---- the kills: after each, every stream must show what it was last acknowledged (or its write in flight)
    const problems: string[] = [];
    const kills: number[] = [];
    let start = await observeAll();
    for (epoch = 0; epoch < killCount; epoch++) {
      ctx.epoch = epoch;
      ctx.active = true;
      const load = Promise.all(channels.map((ch) => driveChannel(ctx, ch, start.get(ch.channelId)!)));
      // One kill in five lands within 150 ms of the start: on the first writes, and on the deliveries resent.
      const delay = rng.chance(0.2) ? rng.int(0, 150) : rng.int(150, 2500);
      await sleep(delay);
      ctx.active = false;
      await child.kill('SIGKILL');
      kills.push(delay);
      await load;
      try {
        child = await startServer();
      } catch (err) {
        throw new Error(`the server did not start again after kill ${epoch + 1}: ${(err as Error).message}`);
      }
      const now = await observeAll();
      for (const ch of channels) {
        const records = ctx.records.filter((r) => r.epoch === epoch && r.channelId === ch.channelId);
        for (const p of checkSurvival(ch.channelId, start.get(ch.channelId)!, records, now.get(ch.channelId)!)) {
          problems.push(`kill ${epoch + 1} (after ${delay} ms): ${p}`);
        }
      }
      start = now;
    }
    const loadEnded = Date.now();

    // ---- the event log, and the receiver once the outbox has settled (no load runs any more)
    const events = await listAll<EventLike>(target, '/v1/events?limit=100');
    const settleBegan = Date.now();
    while (Date.now() - settleBegan < settleMs && events.some((e) => !receiver.accepted.has(e.id))) await sleep(250);
    const settledMs = Date.now() - settleBegan;
    const eventsAgain = await listAll<EventLike>(target, '/v1/events?limit=100');
    if (eventsAgain.length !== events.length) {
      problems.push(`events: the log grew from ${events.length} to ${eventsAgain.length} with no load running`);
    }
    const log = await listAll<DeliveryLogEntry>(target, `/v1/webhooks/${sub.id}/deliveries?limit=100`);
    const subscription = await target.expect<{ status: string; consecutiveFailures: number; lastError: unknown }>(
      200,
      'GET',
      `/v1/webhooks/${sub.id}`,
    );

    problems.push(...ctx.records.flatMap(checkAnswer).map((p) => `answer: ${p}`));
    problems.push(...checkEvents(ctx.records, events).map((p) => `events: ${p}`));
    const arrivals = receiver.arrivals.map((a) => ({
      ...a,
      signatureProblem: verifyDelivery({ headers: a.headers, raw: a.raw } as Received, sub.secret, a.at),
    }));
    const deliveries = checkDeliveries(events, arrivals, log);
    problems.push(...deliveries.problems.map((p) => `webhooks: ${p}`));
    if (subscription.status !== 'enabled') {
      problems.push(`webhooks: the subscription is ${subscription.status}: ${JSON.stringify(subscription.lastError)}`);
    }
    problems.push(...ctx.anomalies.map((a) => `anomaly: ${a}`));

    // ---- what happened
    const count = (stream: string, outcome: string) =>
      ctx.records.filter((r) => r.stream === stream && r.outcome === outcome).length;
    const inFlight = uncertainApplied(ctx.records, events);
    const refusals = new Map<number | null, number>();
    for (const r of ctx.records) if (r.outcome === 'refused') refusals.set(r.status, (refusals.get(r.status) ?? 0) + 1);
    const { summary } = deliveries;
    const report = [
      `seed ${seed}${lying ? ' (through the lying proxy)' : ''}: ${killCount} kills after ${kills.join(', ')} ms of load`,
      `${target.requests} requests; load ${((loadEnded - began) / 1000).toFixed(1)} s, settled in ` +
        `${(settledMs / 1000).toFixed(1)} s, total ${((Date.now() - began) / 1000).toFixed(1)} s`,
      ...['patch', 'hook', 'clock', 'playout'].map(
        (s) =>
          `  ${s.padEnd(8)} acked ${count(s, 'acked')}, refused ${count(s, 'refused')}, ` +
          `uncertain ${count(s, 'uncertain')}`,
      ),
      `refusals by status: ${JSON.stringify(Object.fromEntries(refusals))}; ` +
        `unanswered PATCHes and hook posts found applied: ${inFlight.applied} of ${inFlight.uncertain}`,
      `${summary.events} events; ${summary.arrivals} delivery attempts received, ${summary.redelivered} events ` +
        `delivered more than once (same id), ${summary.dropped} dropped, ${summary.failedAttempts} failed attempts ` +
        `logged; subscription ${subscription.status} (${subscription.consecutiveFailures} consecutive failures)`,
      `${problems.length} problems`,
    ]
      .map((line) => `[chaos] ${line}`)
      .join('\n');
    keep = problems.length > 0;
    return { problems, report, kills, dir };
  } catch (err) {
    keep = true;
    throw new Error(`seed ${seed}, kill ${epoch + 1}: ${(err as Error).message} (data and server.log in ${dir})`);
  } finally {
    await child?.kill('SIGKILL');
    await receiver.close();
    await proxy?.close();
    await new Promise((resolve) => serverLog.end(resolve));
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function listAll<T>(target: Target, first: string): Promise<T[]> {
  const out: T[] = [];
  for (let cursor = ''; ;) {
    const page = await target.expect<{ data: T[]; nextCursor: string | null }>(200, 'GET', `${first}${cursor}`);
    out.push(...page.data);
    if (!page.nextCursor) return out;
    cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

/**
 * How soon a Stream Deck button lights (docs/companion.md, docs/performance.md "Companion module"): a take made over
 * REST, timed to the Companion module's `scene_on_air` feedback turning true, over 200 takes. The module is the
 * built package, running in the Companion stand-in of the tests (test/helpers/companion-host.ts) in this process,
 * against a real server in its own process. Baseline, in the same takes: a bare WebSocket client on the same
 * server seeing the frame that puts the scene on air. Target: p99 ≤ 100 ms.
 *
 *   npm run build:companion && npx tsx bench/companion.ts [--short]
 */
import { performance } from 'node:perf_hooks';
import { InstanceStatus } from '@companion-module/base';
import WebSocket from 'ws';
import { CompanionHost } from '../test/helpers/companion-host.js';
import { sleep } from './lib/child.js';
import { isMain, runAsCommand, type BenchOptions } from './lib/cli.js';
import { startOnair, type Onair } from './lib/onair.js';
import { summary } from './lib/stats.js';
import { fmt, infoRow, ratioRow, type Row, type Table } from './lib/table.js';

const TAKES = 200;
const TARGET_P99_MS = 100;

/** A bare client of the one-channel socket: resolves `waitOnAir` when a frame puts the scene on program. */
function bareClient(server: Onair, channelId: string, sceneId: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/v1/ws?channel=${channelId}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  let waiter: ((at: number) => void) | null = null;
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString('utf8')) as { type: string; program?: { sceneId: string }[] };
    if (msg.type === 'frame' && msg.program?.some((e) => e.sceneId === sceneId)) waiter?.(performance.now());
  });
  return {
    opened: new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    }),
    waitOnAir: () => new Promise<number>((resolve) => (waiter = resolve)),
    close: () => ws.close(),
  };
}

async function post(server: Onair, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export async function runCompanion(o: BenchOptions): Promise<Table[]> {
  const takes = o.short ? 100 : TAKES;
  const server = await startOnair({ channels: 1, dbSync: 'normal', lift: ['updates'] });
  const { id: channelId, sceneId } = server.channels[0]!;
  const host = new CompanionHost();
  const bare = bareClient(server, channelId, sceneId);
  const module: number[] = [];
  const baseline: number[] = [];
  try {
    await bare.opened;
    await host.start({ host: '127.0.0.1', port: server.port, tls: false, channels: '' }, { apiKey: server.key });
    await until(
      () =>
        host.status === InstanceStatus.Ok &&
        Object.keys(host.variableDefinitions).some((id) => id.endsWith('.program')),
      'the module to connect',
    );
    const feedback = await host.placeFeedback('scene_on_air', { scene: sceneId });
    await until(() => host.feedback(feedback) === false, 'the feedback');
    for (let i = 0; i < takes + 10; i++) {
      await post(server, `/v1/channels/${channelId}/preview`, { sceneId });
      const lit = new Promise<number>((resolve) => {
        host.onFeedback = (id, value) => {
          if (id === feedback && value === true) resolve(performance.now());
        };
      });
      const seen = bare.waitOnAir();
      const t0 = performance.now();
      await post(server, `/v1/channels/${channelId}/take`);
      const [litAt, seenAt] = await Promise.all([lit, seen]);
      if (i >= 10) {
        module.push(litAt - t0);
        baseline.push(seenAt - t0);
      }
      host.onFeedback = null;
      await post(server, `/v1/channels/${channelId}/clear`);
      await until(() => host.feedback(feedback) === false, 'the feedback to clear');
    }
  } finally {
    bare.close();
    await host.stop();
    await server.stop();
  }
  const m = summary(module);
  const b = summary(baseline);
  const rows: Row[] = [
    ratioRow('p50, REST take → lit', 'bare WebSocket client', b.p50, m.p50, fmt.ms),
    ratioRow('p99, REST take → lit', 'bare WebSocket client', b.p99, m.p99, fmt.ms),
    {
      metric: 'p99, REST take → scene_on_air true',
      baseline: '—',
      onair: fmt.ms(m.p99),
      ratio: '—',
      target: `≤ ${TARGET_P99_MS} ms`,
      met: m.p99 <= TARGET_P99_MS,
    },
    infoRow('slowest take', fmt.ms(b.max), fmt.ms(m.max)),
  ];
  return [
    {
      title: `Companion module: a REST take to the button's feedback, ${takes} takes`,
      command: `npx tsx bench/companion.ts${o.short ? ' --short' : ''}`,
      rows,
      notes: [
        'A real server (its own process, ONAIR_DB_SYNC=normal) with one channel; the built module (companion/pkg) in ' +
          'the Companion stand-in of the tests, following every channel on one socket with scenes=all; one take at a time ' +
          '(cue, then the timed take, then clear), the first 10 not counted.',
        'Timed from just before the REST take is sent to the moment the module stored `scene_on_air` = true (after the ' +
          "frame was read, reduced, and the feedback re-checked, as Companion would ask); the baseline is the same take's " +
          'frame reaching a bare WebSocket client of the one-channel socket.',
        'Not measured: Companion itself (its IPC to the module process, the drawing of the button, USB to the deck).',
      ],
    },
  ];
}

if (isMain(import.meta.url)) runAsCommand(runCompanion);

/**
 * kill -9 in the middle of a stream of PATCHes (docs/api.md, "Channels": "the 200 is sent only after that tick's state
 * is durable"): after a restart on the same data dir, every acknowledged value is there, and so is its event
 * (docs/api.md, "Events": written in the same transaction). PATCHes are sequential, so the last acknowledged value
 * of each input must be the current one, and the log holds one `channel.bind_updated` per acknowledged PATCH in the
 * order they were answered — unless the one PATCH in flight at the kill was committed without its answer getting
 * out, which is allowed (at the end of the log).
 * The stream goes round three channels so that no channel nears its 30 updates/s limit.
 */
import fs from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import {
  api,
  createChannelWithScoreboard,
  expectStatus,
  getState,
  type Api,
  type Event,
  type InputValue,
  type List,
} from './helpers/api.js';
import { makeDataDir, serverEnv, TEST_KEY } from './helpers/server.js';
import { spawnServer, type ChildServer } from './helpers/spawn-server.js';

const children: ChildServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(dir: string): Promise<ChildServer> {
  // The production default: ticks are written, published, then flushed (fdatasync) before the answer.
  const child = await spawnServer({ ...serverEnv(dir), ONAIR_LOG_LEVEL: 'info', ONAIR_DB_SYNC: 'full' });
  children.push(child);
  return child;
}

/** Where one PATCH writes: a channel and one of its inputs. */
type Slot = `${string}/${string}`;

interface Stream {
  /** Last acknowledged value per slot. */
  acked: Map<Slot, InputValue>;
  /** Every acknowledged PATCH, in the order of its answer. */
  log: { slot: Slot; value: InputValue }[];
  ackCount: number;
  inFlight: { slot: Slot; value: InputValue } | null;
  done: Promise<void>;
}

/** Sequential PATCHes cycling through channels and inputs until a request fails (the server is gone). */
function patchStream(url: string, channelIds: string[]): Stream {
  const stream: Stream = { acked: new Map(), log: [], ackCount: 0, inFlight: null, done: Promise.resolve() };
  const names = ['scoreA', 'scoreB', 'home'] as const;
  stream.done = (async () => {
    for (let i = 0; ; i++) {
      const channelId = channelIds[i % channelIds.length]!;
      const name = names[Math.floor(i / channelIds.length) % names.length]!;
      const value = name === 'home' ? `team-${i}` : i;
      const slot: Slot = `${channelId}/${name}`;
      stream.inFlight = { slot, value };
      let res: Response;
      try {
        res = await fetch(`${url}/v1/channels/${channelId}/inputs`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ [name]: value }),
        });
        await res.arrayBuffer();
      } catch {
        return; // connection refused or reset: the process is dead
      }
      // Anything but 200 was not acknowledged, so it promises nothing.
      if (res.status === 200) {
        stream.acked.set(slot, value);
        stream.log.push({ slot, value });
        stream.ackCount++;
      }
    }
  })();
  return stream;
}

// Two server processes and a stream of PATCHes: 60 s for a busy machine.
it('keeps every acknowledged PATCH across kill -9', async () => {
  const dir = makeDataDir();
  dirs.push(dir);
  const first = await start(dir);
  const call = api(first.url, TEST_KEY);
  const channels = [];
  for (const name of ['One', 'Two', 'Three']) channels.push(await createChannelWithScoreboard(call, name));

  const stream = patchStream(
    first.url,
    channels.map((c) => c.channelId),
  );
  await vi.waitFor(() => expect(stream.ackCount).toBeGreaterThanOrEqual(90), { timeout: 15_000, interval: 5 });
  await first.kill('SIGKILL');
  await stream.done;
  const inFlight = stream.inFlight;

  const second = await start(dir);
  const after = api(second.url, TEST_KEY);
  expect(stream.acked.size).toBe(9);
  for (const { channelId, sceneId } of channels) {
    const state = await getState(after, channelId);
    expect(state.program.map((e) => e.sceneId)).toEqual([sceneId]);
    for (const name of ['scoreA', 'scoreB', 'home']) {
      const slot: Slot = `${channelId}/${name}`;
      const allowed = [stream.acked.get(slot)];
      if (inFlight?.slot === slot) allowed.push(inFlight.value);
      expect(allowed, slot).toContain(state.inputs[name]);
    }
  }

  // Every acknowledged PATCH has its event, in order; the one in flight may follow them.
  const logged = (await boundEvents(after)).map((e) => {
    const [[name, value]] = Object.entries(e.data.inputs as Record<string, InputValue>) as [[string, InputValue]];
    const slot: Slot = `${e.channelId}/${name}`;
    return { slot, value };
  });
  const expected = logged.length === stream.log.length + 1 && inFlight ? [...stream.log, inFlight] : stream.log;
  expect(logged).toEqual(expected);
}, 60_000);

/** Every `channel.bind_updated` in the log, oldest first. */
async function boundEvents(call: Api): Promise<Event[]> {
  const out: Event[] = [];
  for (let cursor = ''; ;) {
    const page = expectStatus(
      await call<List<Event>>('GET', `/v1/events?type=channel.bind_updated&limit=100${cursor}`),
      200,
    );
    out.push(...page.data);
    if (!page.nextCursor) return out;
    cursor = `&cursor=${page.nextCursor}`;
  }
}

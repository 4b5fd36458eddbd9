/**
 * The load of the crash suite: per channel, four sequential streams of writes (PATCH inputs, incoming-hook posts,
 * clock ops, playout ops), each recording every write it sends with its outcome (model.ts). A stream chooses its
 * next write from what it knows the channel shows, so that every write changes something (and so has an event),
 * and stops at its first unanswered write: the server is gone.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  busesOf,
  CLOCK,
  pick,
  STREAM_INPUTS,
  type Buses,
  type ClockOp,
  type ClockState,
  type Observed,
  type Outcome,
  type PlayoutOp,
  type Scalar,
  type StateLike,
  type WriteRecord,
} from './model.js';
import type { Rng } from './random.js';

export interface Answer {
  status: number;
  body: unknown;
}

/** Where the server is now (the port changes with each start), and what has been sent. */
export class Target {
  url = '';
  requests = 0;
  constructor(readonly key: string) {}

  /** The answer, or null when none came (connection refused or reset, or 5 s without an answer). */
  async send(method: string, path: string, body?: unknown, auth = true): Promise<Answer | null> {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Bearer ${this.key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    this.requests++;
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: res.status, body: parsed };
    } catch {
      return null;
    }
  }

  /** For setup and checks, where anything but `status` is a failure of the run. */
  async expect<T>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.send(method, path, body);
    if (answer?.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${answer ? answer.status : 'no answer'}: ${JSON.stringify(answer?.body)}`,
      );
    }
    return answer.body as T;
  }
}

export interface ChannelFixture {
  channelId: string;
  /** The two scenes: a scoreboard on layer 10, a lower third on layer 20. */
  scenes: { sceneId: string; layer: number }[];
  hookToken: string;
  /** The counters of the values streams: the last n sent. */
  patchN: number;
  hookN: number;
}

export interface LoadContext {
  target: Target;
  rng: Rng;
  epoch: number;
  /** Cleared just before the kill: no stream starts a new write after it. */
  active: boolean;
  records: WriteRecord[];
  /** Answers that break the documented contract while the server was up (a 5xx, a wrong answer body). */
  anomalies: string[];
}

function outcomeOf(answer: Answer | null): Outcome {
  if (!answer || answer.status >= 500) return 'uncertain';
  return answer.status < 300 ? 'acked' : 'refused';
}

function note(ctx: LoadContext, what: string, answer: Answer | null): void {
  if (answer && answer.status >= 500) ctx.anomalies.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One PATCH of scoreA = n (and half the time home = "T-n"). */
export async function patchOnce(ctx: LoadContext, ch: ChannelFixture, known: Record<string, Scalar>) {
  const n = ++ch.patchN;
  const values: Record<string, Scalar> = { scoreA: n };
  if (ctx.rng.chance(0.5)) values.home = `T-${n}`;
  const epoch = ctx.epoch;
  const answer = await ctx.target.send('PATCH', `/v1/channels/${ch.channelId}/inputs`, values);
  const outcome = outcomeOf(answer);
  note(ctx, `PATCH ${ch.channelId} ${JSON.stringify(values)}`, answer);
  if (outcome === 'acked') {
    const got = (answer!.body as { inputs?: unknown }).inputs;
    if (!isDeepStrictEqual(got, values)) {
      ctx.anomalies.push(`PATCH ${JSON.stringify(values)} answered inputs ${JSON.stringify(got)}`);
    }
  }
  ctx.records.push({
    stream: 'patch',
    channelId: ch.channelId,
    epoch,
    outcome,
    status: answer?.status ?? null,
    n,
    values,
    before: { ...known },
  });
  return { outcome, after: outcome === 'acked' ? { ...known, ...values } : known };
}

/** One incoming-hook post: scoreB = n (sent as a string, as scorekeepers do) and period = n. */
export async function hookOnce(ctx: LoadContext, ch: ChannelFixture, known: Record<string, Scalar>) {
  const n = ++ch.hookN;
  const values: Record<string, Scalar> = { scoreB: n, period: n };
  const epoch = ctx.epoch;
  const body = { game: { away: { score: String(n) } }, period: n, venue: 'chaos' };
  const answer = await ctx.target.send('POST', `/v1/hooks/${ch.hookToken}`, body, false);
  const outcome = outcomeOf(answer);
  note(ctx, `hook ${ch.channelId} ${JSON.stringify(body)}`, answer);
  if (outcome === 'acked') {
    const got = (answer!.body as { applied?: Record<string, unknown> }).applied;
    if (!isDeepStrictEqual(got, values)) {
      ctx.anomalies.push(`hook ${JSON.stringify(body)} answered applied ${JSON.stringify(got)}`);
    }
  }
  ctx.records.push({
    stream: 'hook',
    channelId: ch.channelId,
    epoch,
    outcome,
    status: answer?.status ?? null,
    n,
    values,
    before: { ...known },
  });
  return { outcome, after: outcome === 'acked' ? { ...known, ...values } : known };
}

export function nextClockOp(rng: Rng, known: ClockState): ClockOp {
  const r = rng.next();
  if (r < 0.35) {
    let ms = rng.int(600, 900) * 1000 + rng.int(0, 999);
    if (!known.running && ms === known.ms) ms += 1;
    return { action: 'set', ms };
  }
  if (r < 0.6) return { action: 'adjust', ms: rng.pick([-1, 1]) * rng.int(1000, 5000) };
  return { action: known.running ? 'stop' : 'start' };
}

export async function clockOnce(ctx: LoadContext, ch: ChannelFixture, known: ClockState, op: ClockOp) {
  const epoch = ctx.epoch;
  const answer = await ctx.target.send('POST', `/v1/channels/${ch.channelId}/clocks/${CLOCK}`, op);
  const outcome = outcomeOf(answer);
  note(ctx, `clock ${ch.channelId} ${JSON.stringify(op)}`, answer);
  const clock = outcome === 'acked' ? (answer!.body as { clock: ClockState }).clock : undefined;
  ctx.records.push({
    stream: 'clock',
    channelId: ch.channelId,
    epoch,
    outcome,
    status: answer?.status ?? null,
    op,
    before: known,
    answer: clock,
  });
  return { outcome, after: clock ?? known };
}

export function nextPlayoutOp(rng: Rng, ch: ChannelFixture, known: Buses): PlayoutOp {
  const choices: { weight: number; op: PlayoutOp }[] = [];
  for (const s of ch.scenes) {
    if (known.preview[s.layer] !== s.sceneId) choices.push({ weight: 3, op: { kind: 'preview', ...s } });
    choices.push({ weight: 1, op: { kind: 'program', ...s } });
  }
  if (Object.keys(known.preview).length > 0) choices.push({ weight: 4, op: { kind: 'take' } });
  const onAir = Object.keys(known.program).map(Number);
  for (const layer of onAir) choices.push({ weight: 2, op: { kind: 'clear', layer } });
  if (onAir.length > 1) choices.push({ weight: 1, op: { kind: 'clear' } });
  let x = rng.next() * choices.reduce((sum, c) => sum + c.weight, 0);
  for (const c of choices) if ((x -= c.weight) < 0) return c.op;
  return choices.at(-1)!.op;
}

export async function playoutOnce(ctx: LoadContext, ch: ChannelFixture, known: Buses, op: PlayoutOp) {
  const epoch = ctx.epoch;
  const base = `/v1/channels/${ch.channelId}`;
  const answer =
    op.kind === 'preview' || op.kind === 'program'
      ? await ctx.target.send('POST', `${base}/${op.kind}`, { sceneId: op.sceneId })
      : op.kind === 'take'
        ? await ctx.target.send('POST', `${base}/take`, {})
        : await ctx.target.send('POST', `${base}/clear`, op.layer === undefined ? {} : { layer: op.layer });
  const outcome = outcomeOf(answer);
  note(ctx, `playout ${ch.channelId} ${JSON.stringify(op)}`, answer);
  const buses = outcome === 'acked' ? busesOf(answer!.body as StateLike) : undefined;
  ctx.records.push({
    stream: 'playout',
    channelId: ch.channelId,
    epoch,
    outcome,
    status: answer?.status ?? null,
    op,
    before: known,
    answer: buses,
  });
  return { outcome, after: buses ?? known };
}

/**
 * Runs the four streams of one channel from what it showed at the start of the epoch until `ctx.active` is
 * cleared or a write goes unanswered. Waits of 40–160 ms between writes keep a channel near 25 writes a second,
 * under its 30 a second (a 429 is refused, so harmless anyway).
 */
export async function driveChannel(ctx: LoadContext, ch: ChannelFixture, start: Observed): Promise<void> {
  const pace = () => sleep(ctx.rng.int(40, 160));
  const loop = async <S>(state: S, step: (s: S) => Promise<{ outcome: Outcome; after: S }>) => {
    await sleep(ctx.rng.int(0, 60));
    while (ctx.active) {
      const { outcome, after } = await step(state);
      if (outcome === 'uncertain') return;
      state = after;
      await pace();
    }
  };
  await Promise.all([
    loop(pick(start.inputs, STREAM_INPUTS.patch), (s) => patchOnce(ctx, ch, s)),
    loop(pick(start.inputs, STREAM_INPUTS.hook), (s) => hookOnce(ctx, ch, s)),
    loop(start.clock, (s) => clockOnce(ctx, ch, s, nextClockOp(ctx.rng, s))),
    loop(start.buses, (s) => playoutOnce(ctx, ch, s, nextPlayoutOp(ctx.rng, ch, s))),
  ]);
}

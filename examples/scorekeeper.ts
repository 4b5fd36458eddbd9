/**
 * A scorekeeper for onair's incoming webhooks (docs/incoming-hooks.md): it plays a short basketball game and,
 * after every change, posts the whole score table to a hook the way a scoring console does, nested as the
 * console shapes it. The hook's mapping picks out what the scoreboard shows; each answer says what was applied
 * and which fields nothing maps.
 *
 * 1. Create the hook on a channel whose program shows the built-in scoreboard (its `url` is in the answer,
 *    shown once; the token in it is the only credential, so keep it like a key):
 *
 *    curl -s -X POST "http://localhost:8080/v1/channels/$CHANNEL_ID/incoming-hooks" \
 *      -H "Authorization: Bearer $ONAIR_API_KEY" -H 'Content-Type: application/json' \
 *      -d '{"name":"Scorekeeper","mapping":{"game.home.name":"home","game.away.name":"away","game.home.score":"scoreA","game.away.score":"scoreB","game.quarter":"period","game.clock.ms":"gameClock","game.clock.running":"gameClock"}}'
 *
 * 2. Play:  npx tsx examples/scorekeeper.ts <hook-url> [--speed 10] [--quarters 4]
 *    (or set ONAIR_HOOK_URL instead of passing the URL).
 *
 * A post looks like {"game": {"home": {"name": "Lions", "score": 2}, "away": {…}, "quarter": 2,
 * "clock": {"running": true, "ms": 720000}}}. Both clock fields drive the game clock: a clock input takes whole
 * milliseconds to set it and true or false to start or stop it, and when one post carries both the time is set
 * first. So every post puts the on-air clock at the console's time, it runs by itself between posts, and the buzzer
 * post stops it at 00:00 (the game runs faster than real time, so the clock jumps on at each post).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const USAGE = 'Usage: npx tsx examples/scorekeeper.ts <hook-url> [--speed 10] [--quarters 4]  (or ONAIR_HOOK_URL)';
const QUARTER_MS = 12 * 60_000;
/** Scoring plays a quarter holds, between the tip-off post and the buzzer post. */
const PLAYS_PER_QUARTER = 7;
/** Real time a quarter and the break after it take at --speed 1. */
const QUARTER_REAL_MS = 6_000;
const BREAK_REAL_MS = 1_500;
/** 429s in a row the scorekeeper waits out before giving up. */
const MAX_RETRIES = 5;

interface Team {
  name: string;
  score: number;
}

interface Game {
  home: Team;
  away: Team;
  quarter: number;
  clock: { running: boolean; ms: number };
}

/** The hook's answer to a post it applied. */
interface Answer {
  frame: number | null;
  applied: Record<string, unknown>;
  ignored: string[];
}

/** An error the run stops on, shown as its message alone (a refused post, a bad option). */
class Stop extends Error {}

interface Options {
  url: string;
  speed: number;
  quarters: number;
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        speed: { type: 'string', default: '1' },
        quarters: { type: 'string', default: '4' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new Stop(`${(err as Error).message}\n${USAGE}`);
  }
}

function readOptions(): Options {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const url = positionals[0] ?? process.env.ONAIR_HOOK_URL;
  if (!url || !URL.canParse(url)) throw new Stop(`${url ? `Not a URL: ${url}` : 'No hook URL.'}\n${USAGE}`);
  const speed = Number(values.speed);
  const quarters = Number(values.quarters);
  if (!(speed > 0 && speed <= 100)) throw new Stop(`--speed must be a number above 0, at most 100.`);
  if (!Number.isInteger(quarters) || quarters < 1 || quarters > 10) {
    throw new Stop('--quarters must be a whole number from 1 to 10.');
  }
  return { url, speed, quarters };
}

/** Posts the game, waiting out 429s as Retry-After asks; throws Stop on any other error. */
async function post(url: string, game: Game): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game }),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.ok) return (await res.json()) as Answer;
    const problem = await readProblem(res);
    if (res.status === 429 && attempt < MAX_RETRIES) {
      const seconds = Number(res.headers.get('retry-after')) || 1;
      console.log(`  rate limited: waiting ${seconds} s as the hook asks`);
      await sleep(seconds * 1000);
      continue;
    }
    throw new Stop(`The hook answered HTTP ${res.status} ${problem}`);
  }
}

/** "code: detail" from a problem+json answer (the detail names the field at fault), else the body's text. */
async function readProblem(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const { code, detail } = JSON.parse(text) as { code?: string; detail?: string };
    if (code || detail) return `${code ?? res.statusText}: ${detail ?? ''}`;
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return `${res.statusText}: ${text.slice(0, 200)}`;
}

/** One line per post: the game as posted, then what the hook applied and which fields it ignored. */
function report(game: Game, answer: Answer): void {
  const { home, away, quarter, clock } = game;
  const score = `${home.name} ${home.score}-${away.score} ${away.name}`;
  const table = `Q${quarter} ${mmss(clock.ms)} ${clock.running ? 'running' : 'stopped'}  ${score}`;
  const applied = Object.entries(answer.applied).map(([input, value]) => `${input}=${JSON.stringify(value)}`);
  const list = (items: string[], separator: string) => (items.length > 0 ? items.join(separator) : '(nothing)');
  console.log(`${table.padEnd(40)} -> applied ${list(applied, ' ')}, ignored ${list(answer.ignored, ', ')}`);
}

function mmss(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A basket (2 or 3) or a free throw (1) for either side. */
function scorePlay(game: Game): void {
  const team = Math.random() < 0.5 ? game.home : game.away;
  team.score += [1, 2, 2, 2, 3, 3][Math.floor(Math.random() * 6)]!;
}

/** Tip-off, the scoring plays as the console's clock runs down, then the buzzer that stops the clock. */
async function playQuarter(game: Game, quarter: number, send: (game: Game) => Promise<void>, stepMs: number) {
  game.quarter = quarter;
  game.clock = { running: true, ms: QUARTER_MS };
  await send(game);
  const steps = PLAYS_PER_QUARTER + 1;
  for (let step = 1; step <= steps; step++) {
    await sleep(stepMs);
    game.clock.ms = Math.round(QUARTER_MS * (1 - step / steps));
    if (step < steps) scorePlay(game);
    else game.clock.running = false;
    await send(game);
  }
}

async function main(): Promise<void> {
  const { url, speed, quarters } = readOptions();
  const game: Game = {
    home: { name: 'Lions', score: 0 },
    away: { name: 'Comets', score: 0 },
    quarter: 1,
    clock: { running: false, ms: QUARTER_MS },
  };
  const send = async (g: Game) => report(g, await post(url, g));
  const length = `${quarters} quarter${quarters === 1 ? '' : 's'}`;
  console.log(`Posting to ${new URL(url).origin}/… at speed ${speed}, ${length}`);
  for (let quarter = 1; quarter <= quarters; quarter++) {
    await playQuarter(game, quarter, send, QUARTER_REAL_MS / (PLAYS_PER_QUARTER + 1) / speed);
    if (quarter < quarters) await sleep(BREAK_REAL_MS / speed);
  }
  console.log(`Final: ${game.home.name} ${game.home.score}, ${game.away.name} ${game.away.score}`);
}

/** fetch reports an unreachable server as "fetch failed", with the reason as its cause. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message} (${err.cause.message})` : err.message;
}

try {
  await main();
} catch (err) {
  console.error(`Stopped. ${err instanceof Stop ? err.message : `Cannot post to the hook: ${describe(err)}`}`);
  process.exitCode = 1;
}

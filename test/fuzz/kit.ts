/**
 * The fuzz kit: the seed, a wrapper around fc.assert that names the seed on failure, and the oracle every hostile
 * request is judged by (docs/api.md, "The order of checks" and "Errors"): a documented status, a problem+json body
 * with a catalogued code whose status matches, never a 500, never a stack trace or a file path, never a hang.
 *
 * Seed: CI (`CI=true`) runs seed 42; a local run draws a fresh seed; `FUZZ_SEED=<n>` replays one (and wins over CI).
 * The seed is in every failure message and in the summary each file prints at its end.
 * `FUZZ_RUNS=<factor>` multiplies every property's number of runs (for a long local soak).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { Client } from 'undici';

export const SEED =
  process.env.FUZZ_SEED !== undefined && process.env.FUZZ_SEED !== ''
    ? Number(process.env.FUZZ_SEED)
    : process.env.CI === 'true'
      ? 42
      : Math.floor(Math.random() * 0x7fffffff);

const RUNS_FACTOR = Number(process.env.FUZZ_RUNS ?? 1) || 1;

export function runs(n: number): number {
  return Math.max(1, Math.round(n * RUNS_FACTOR));
}

/**
 * Workspaces to spread a file's requests over (their buckets are per workspace): more for a longer soak, up to 16
 * (an account owns at most 20).
 */
export function workspaces(n: number): number {
  return Math.min(16, n * Math.max(1, Math.ceil(RUNS_FACTOR)));
}

/**
 * How long any one answer may take before it counts as a hang: an answer takes milliseconds, but the server shares
 * this process (and a busy machine) with the test.
 */
export const HANG_MS = 15_000;

/**
 * A property that has not finished after this long fails (a normal one takes seconds; hangs make shrinking slow),
 * reporting what failed so far.
 */
const PROPERTY_TIME_LIMIT_MS = 90_000;

/**
 * fc.assert with the file's seed; on failure the error starts with the seed and the command that replays it, then
 * fast-check's own report (counterexample, shrink path, the failures it met while shrinking).
 */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> {
  try {
    await fc.assert(property, {
      seed: SEED,
      numRuns,
      verbose: fc.VerbosityLevel.Verbose,
      includeErrorInReport: true,
      plugins: [fc.interruptAfterTimeLimit(PROPERTY_TIME_LIMIT_MS, { failOnInterrupt: true })],
    });
  } catch (err) {
    const message = trimReport(err instanceof Error ? err.message : String(err));
    throw new Error(
      `fuzz property "${name}" failed — seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run test/fuzz)\n${message}`,
      { cause: err },
    );
  }
}

/** fast-check's report, with the failures met while shrinking cut to the first few and every line kept short. */
function trimReport(message: string): string {
  const [head = '', tail] = message.split('Encountered failures were:');
  const clip = (line: string) => (line.length > 1_500 ? `${line.slice(0, 1_500)}… (${line.length} chars)` : line);
  const lines = head.split('\n').map(clip);
  if (tail !== undefined) {
    const seen = tail.split('\n').filter((l) => l.startsWith('- '));
    lines.push(`Encountered failures were (${seen.length}, first 3):`, ...seen.slice(0, 3).map(clip));
  }
  return lines.join('\n');
}

/** Expands `«a×5000»` (how cases spell long runs, to keep counterexamples short) into the run itself. */
export function expand(text: string): string {
  return text.replace(/«(.+?)×(\d+)»/gs, (_, s: string, n: string) => s.repeat(Number(n)));
}

/**
 * `FUZZ_TRACE=1` writes every request to stderr before it is sent, synchronously: the server runs in this process,
 * so a request that blocks its event loop also stops the test's timers, and the trace's last line names it.
 */
export function trace(line: () => string): void {
  if (process.env.FUZZ_TRACE) fs.writeSync(2, `[fuzz] ${line().slice(0, 400)}\n`);
}

/** A property's predicate: throws with every violation found for one case. */
export function fail(violations: string[], context: string): void {
  if (violations.length > 0) throw new Error(`${violations.join('; ')}\n  ${context}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The error catalogue, read from docs/api.md (the contract), not from src/.

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** code → status, from the "## Errors" table of docs/api.md, without `internal` (a 500 is never a right answer). */
export function documentedCodes(): Map<string, number> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => /^Errors\b/.test(s));
  if (!section) throw new Error('docs/api.md has no "## Errors" section');
  const rows = [...section.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm)];
  const codes = new Map(rows.map((m) => [m[2]!, Number(m[1])]));
  codes.delete('internal');
  return codes;
}

export const CATALOGUE = documentedCodes();

/**
 * Statuses any /v1 request may answer (docs/api.md, "The order of checks, and errors every route can answer"):
 * transport, authentication, body, guard, validation. 500 is listed there as "a bug": never accepted here.
 */
export const COMMON_STATUSES: readonly number[] = [400, 401, 403, 404, 413, 415, 429, 503];

// ---------------------------------------------------------------------------------------------------------------
// The oracle.

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as latin1 text (bytes preserved one to one), '' for none. */
  text: string;
}

export interface Expectation {
  /** Statuses the route documents, plus the common ones; 2xx only those the route lists. */
  allowed: ReadonlySet<number>;
  /**
   * What the request carried (path, headers, body), as text: a pattern that already occurs in it may be echoed
   * back (an unknown field's name in `errors`), so it does not count as a leak.
   */
  sent: string;
}

/** What a stack trace or an internal error leaks. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s*at\s+\S/],
  ['a stack frame', /\bat (?:async )?[\w$.<>[\]]+ \((?:file:|\/|node:)/],
  ['a source position', /\.(?:[cm]?[jt]s|node):\d+(?::\d+)?\b/],
  ['a file path', /(?:\/|\\)(?:src|node_modules|dist|work|home|tmp)(?:\/|\\)[\w.@-]+(?:\/|\\)/],
  ['a file URL', /file:\/\//],
  ['an error name', /\b(?:Type|Range|Reference|Syntax|Eval|URI|Aggregate|Sqlite|Zod)?Error: /],
  ['an SQLite error', /\bSQLITE_[A-Z_]+|better-sqlite3|no such (?:table|column)/],
  ['a Node error code', /\bERR_[A-Z_]{4,}\b/],
];

function header(answer: HttpAnswer, name: string): string {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

export function leaksIn(text: string, sent: string): string[] {
  return LEAKS.filter(([, re]) => re.test(text) && !re.test(sent)).map(([what]) => `body leaks ${what}`);
}

/** Every way `answer` breaks the contract; [] when it keeps it. */
export function violations(answer: HttpAnswer, expected: Expectation): string[] {
  const out: string[] = [];
  const { status } = answer;
  if (status >= 500 && status !== 503) out.push(`HTTP ${status}`);
  else if (!expected.allowed.has(status)) out.push(`HTTP ${status} is not documented for this route`);
  if (!header(answer, 'x-request-id')) out.push('no X-Request-Id');
  out.push(...leaksIn(answer.text, expected.sent));
  if (status >= 400) {
    const type = header(answer, 'content-type');
    if (!/^application\/problem\+json\b/.test(type)) out.push(`error answered as ${JSON.stringify(type)}`);
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(utf8(answer)) as Record<string, unknown>;
    } catch {
      out.push(`error body is not JSON: ${JSON.stringify(answer.text.slice(0, 120))}`);
    }
    if (body) {
      const code = String(body.code);
      if (!CATALOGUE.has(code)) out.push(`code ${JSON.stringify(body.code)} is not in the catalogue`);
      else if (CATALOGUE.get(code) !== status) out.push(`code ${code} answered with HTTP ${status}`);
      if (body.status !== status) out.push(`problem status ${String(body.status)} ≠ HTTP ${status}`);
      for (const member of ['type', 'title', 'detail'])
        if (typeof body[member] !== 'string') out.push(`problem without a string "${member}"`);
    }
  }
  return out;
}

/** The body as the UTF-8 text it is (HttpAnswer.text keeps the bytes as latin1). */
export function utf8(answer: HttpAnswer): string {
  return Buffer.from(answer.text, 'latin1').toString('utf8');
}

/** The code of a problem answer ('' when none): for tallies. */
export function codeOf(answer: HttpAnswer): string {
  if (answer.status < 400) return '';
  try {
    return String((JSON.parse(utf8(answer)) as { code?: unknown }).code);
  } catch {
    return '?';
  }
}

/** Counts of what a property saw, printed at the end of a file: the report's raw material. */
export class Tally {
  private readonly counts = new Map<string, number>();
  readonly notes = new Set<string>();

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  note(text: string): void {
    this.notes.add(text);
  }

  count(predicate: (key: string) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) if (predicate(key)) n += c;
    return n;
  }

  summary(title: string): string {
    const rows = [...this.counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${String(n).padStart(5)}  ${k}`);
    const notes = [...this.notes].map((n) => `  note: ${n}`);
    return [`[fuzz seed ${SEED}] ${title}`, ...rows, ...notes].join('\n');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sending.

export interface RawRequest {
  method: string;
  /** Sent verbatim: dot segments, percent escapes and latin1 bytes are not normalised. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request over undici's Client, which sends the path as given (fetch would resolve `../`). A hang (no answer
 * within HANG_MS) rejects with a message saying so.
 */
export async function send(client: Client, req: RawRequest, hangMs = HANG_MS): Promise<HttpAnswer> {
  trace(() => `${req.method} ${req.path} ${JSON.stringify(req.headers)} ${String(req.body ?? '').slice(0, 200)}`);
  const signal = AbortSignal.timeout(hangMs);
  try {
    const res = await client.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
      signal,
      headersTimeout: hangMs,
      bodyTimeout: hangMs,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, text: bytes.toString('latin1') };
  } catch (err) {
    if (signal.aborted) throw new Error(`no answer within ${hangMs} ms (a hang): ${req.method} ${req.path}`);
    throw err;
  }
}

/** The status of GET /healthz on a fresh connection (0 for no answer): 200 when the server is alive and ready. */
export async function healthStatus(baseUrl: string, timeoutMs = HANG_MS): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/**
 * Exceptions nothing caught, recorded while a fuzz file runs. The server runs in the test's process: an exception
 * thrown inside a uWS callback escapes to the process (a production server dies of it: `node` exits), while here the
 * request it was serving just never gets an answer. `take()` names what was thrown since the last call.
 */
export class UncaughtErrors {
  private seen: string[] = [];
  private readonly listener = (err: Error) => {
    const frame =
      (err.stack ?? '')
        .split('\n')
        .find((l) => /^\s+at /.test(l))
        ?.trim() ?? '';
    this.seen.push(`${err.name}: ${err.message} ${frame}`.trim());
  };

  constructor() {
    process.on('uncaughtException', this.listener);
  }

  take(): string[] {
    return this.seen.splice(0);
  }

  dispose(): void {
    process.off('uncaughtException', this.listener);
  }
}

/** A violation for what was thrown uncaught during a case, if anything was. */
export function uncaughtViolations(uncaught: UncaughtErrors | undefined): string[] {
  const thrown = uncaught?.take() ?? [];
  return thrown.length > 0
    ? [`the server threw an uncaught exception, which kills a production server: ${thrown.join(' | ')}`]
    : [];
}

/**
 * Watches a server that fuzzed requests may break. A request that gets no answer is checked against GET /healthz;
 * when that fails too, the server is taken as broken (crashed or wedged: it runs in this process, so an exception
 * thrown inside a uWS callback can leave it so), and every later case fails at once with the request that broke
 * it, instead of waiting out a timeout each.
 */
export class ServerWatch {
  broken: string | null = null;
  /** Once one request has hung, later ones (shrinking replays it) get a shorter wait: a normal answer takes ms. */
  private hangMs = HANG_MS;

  private readonly uncaught = new UncaughtErrors();

  constructor(private readonly baseUrl: () => string) {}

  async send(client: Client, req: RawRequest, description: string): Promise<HttpAnswer> {
    this.check();
    let answer: HttpAnswer;
    try {
      answer = await send(client, req, this.hangMs);
    } catch (err) {
      if ((err as Error).message.startsWith('no answer within')) this.hangMs = 1_000;
      const health = await healthStatus(this.baseUrl());
      const thrown = uncaughtViolations(this.uncaught)
        .map((v) => `; ${v}`)
        .join('');
      const message = `${(err as Error).message}; GET /healthz then answered ${health || 'nothing'}${thrown}\n  ${description}`;
      if (health !== 200) this.broken = message;
      throw new Error(message);
    }
    const thrown = uncaughtViolations(this.uncaught);
    if (thrown.length > 0) throw new Error(`${thrown[0]}\n  ${description}`);
    return answer;
  }

  dispose(): void {
    this.uncaught.dispose();
  }

  /** Throws when an earlier case broke the server. */
  check(): void {
    if (this.broken) throw new Error(`the server stopped answering after an earlier case: ${this.broken}`);
  }
}

export interface RawReply {
  /** Everything the server sent, latin1. */
  raw: string;
  /** Responses parsed out of `raw`, in order. */
  answers: HttpAnswer[];
  /** When the server closed the connection, in ms after the write; null if it had not within the wait. */
  closedAfterMs: number | null;
}

/** Splits a byte stream of HTTP/1.1 responses (Content-Length framed, as uWS sends them). */
export function parseResponses(raw: string): HttpAnswer[] {
  const answers: HttpAnswer[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const lines = rest.slice(0, end).split('\r\n');
    const status = Number(lines[0]!.slice(9, 12));
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status, headers, text: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

/**
 * Writes `bytes` on a fresh TCP connection and collects what comes back until the server closes it, or `waitMs`
 * passes, or (with `untilAnswers`) that many complete responses arrived.
 */
export function rawExchange(port: number, bytes: Buffer, waitMs: number, untilAnswers = Infinity): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sentAt = 0;
    let settled = false;
    const done = (closedAfterMs: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ raw, answers: parseResponses(raw), closedAfterMs });
    };
    const timer = setTimeout(() => done(null), waitMs);
    socket.on('connect', () => {
      sentAt = performance.now();
      socket.write(bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponses(Buffer.concat(chunks).toString('latin1')).length >= untilAnswers) done(null);
    });
    socket.on('close', () => done(Math.round(performance.now() - sentAt)));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may close (or reset) while a body is still being written: what it sent first still counts.
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
  });
}

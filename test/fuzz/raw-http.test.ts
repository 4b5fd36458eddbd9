/**
 * The REST routes fuzzed with the bytes fetch refuses to send: raw HTTP/1.1 over a TCP socket. Header values with bytes
 * that are not UTF-8 (obs-text), bodies that are not UTF-8, CR/LF injected into header values, NUL and control
 * characters, folded and nameless header lines, repeated and absurd Content-Lengths, Content-Length together with
 * Transfer-Encoding, chunked bodies, a health check pipelined behind.
 *
 * What each answer must be comes from docs/api.md and docs/deploy.md ("Limits of the HTTP server"):
 * - a well-formed request is answered, within a few seconds, with a documented status and a problem+json body
 *   carrying a catalogued code (kit.ts `violations`), never a 500;
 * - a request with a malformed header line (bare CR or LF, NUL or another control character, obs-fold, no colon, a
 *   space before the colon, a byte above 0x7f in a name) may get no answer at all: uWS drops it;
 * - a repeated Content-Length or a Transfer-Encoding other than one `chunked` is 400 and the connection closed
 *   (or closed at once); Content-Length with Transfer-Encoding, or one uWS cannot read, is closed at once;
 *   a Content-Length over 64 KiB is 413 and closed;
 * - a request smuggled behind a refused framing is never answered;
 * and after every case GET /healthz answers 200 on a fresh connection.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bodyBytes, bodySpec, hostileJson, invalidUtf8, type BodySpec } from './arbitraries.js';
import {
  assertProperty,
  codeOf,
  fail,
  HANG_MS,
  healthStatus,
  rawExchange,
  runs,
  Tally,
  UncaughtErrors,
  uncaughtViolations,
  violations,
  workspaces,
  type RawReply,
} from './kit.js';
import { allowedStatuses, fillPath, loadDocument, operationsOf, type Operation } from './openapi.js';
import { startWorld, type World } from './world.js';

/** How long to listen for an answer that may legitimately never come (a dropped malformed request). */
const SILENCE_MS = 300;
/** How long a well-formed request may take to be answered (the server shares this process and a busy machine). */
const ANSWER_MS = HANG_MS;
/** Requests are spread over several workspaces' buckets. */
const WORKSPACES = workspaces(4);
/** "Closed at once". */
const AT_ONCE_MS = 1_000;

let world: World;
let operations: Operation[];
let broken: string | null = null;
/** Lowered once a request has gone unanswered: shrinking replays it, and an answer takes milliseconds. */
let answerMs = ANSWER_MS;
let uncaught: UncaughtErrors;
const tally = new Tally();

beforeAll(async () => {
  world = await startWorld(WORKSPACES);
  uncaught = new UncaughtErrors();
  operations = operationsOf(await loadDocument(world.server.url)).filter((op) => !op.path.startsWith('/auth/'));
}, 120_000);

afterAll(async () => {
  console.log(tally.summary('raw HTTP: outcome × status × code'));
  uncaught?.dispose();
  await world?.dispose();
});

// ---------------------------------------------------------------------------------------------------------------

/** An extra header line: well-formed but hostile, or malformed in a way docs/deploy.md lets uWS drop. */
type HeaderLine =
  | { kind: 'obs-text'; name: string; bytes: number[] }
  | { kind: 'crlf-injection'; name: string; injected: string }
  | { kind: 'malformed'; variant: (typeof MALFORMED)[number] };

const MALFORMED = [
  'bare CR in a value',
  'bare LF in a value',
  'NUL in a value',
  'control character in a value',
  'obs-fold',
  'no colon',
  'space before the colon',
  'byte above 0x7f in a name',
  'CRLF injection without a colon',
] as const;

type Framing = 'exact' | 'chunked' | 'repeated' | 'repeated, different' | 'absurd' | 'with Transfer-Encoding';

interface RawCase {
  /** Which workspace's key and ids. */
  ws: number;
  op: number;
  auth: boolean;
  lines: HeaderLine[];
  framing: Framing;
  /** For `absurd`: the Content-Length sent. */
  absurdLength: number;
  body: BodySpec;
  contentType: 'application/json' | 'text/plain' | 'none';
  pipelineHealth: boolean;
  /** Extra plain header lines (`X-Pad-1: 1`…): this uWS build reads at most 48 header lines. */
  padding: number;
}

/**
 * The most header lines docs/deploy.md says a request may have ("more than N header lines" in "Limits of the HTTP
 * server"), or null while it says nothing: then every request must be answered, however many lines it has.
 */
const DOCUMENTED_MAX_HEADER_LINES: number | null = (() => {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'deploy.md'), 'utf8');
  const match = /(?:more than|over) (\d+) header lines/i.exec(doc);
  return match ? Number(match[1]) : null;
})();

const HEADER_NAMES = [
  'X-Custom',
  'User-Agent',
  'Authorization',
  'X-Request-Id',
  'Idempotency-Key',
  'X-Workspace',
  'Origin',
  'Cookie',
  'Accept',
  'Content-Type',
  'X-Forwarded-For',
  'Host',
];

/** Values made of obs-text: valid and broken UTF-8, latin1, around ASCII. */
const obsText: fc.Arbitrary<number[]> = fc.oneof(
  fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }),
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 24 })
    .filter((b) => b.length > 0 && b[0] !== 0x20),
  invalidUtf8.map((b) => b.filter((x) => x !== 0x22)),
  fc.constantFrom<number[]>(
    [0x61, 0xd7, 0x33, 0xbb],
    [0xab, 0x61, 0xd7, 0x33, 0x30, 0x30, 0x30, 0xbb],
    [0xc3],
    [0xe2, 0x82, 0xac],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xed, 0xa0, 0x80],
  ),
);

const headerLine: fc.Arbitrary<HeaderLine> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('obs-text' as const),
      name: fc.constantFrom(...HEADER_NAMES),
      bytes: obsText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('crlf-injection' as const),
      name: fc.constantFrom(...HEADER_NAMES),
      injected: fc.constantFrom('X-Injected: 1', 'Set-Cookie: onair_session=x', 'Host: evil', 'X-Request-Id: injected'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('malformed' as const), variant: fc.constantFrom(...MALFORMED) }),
  },
);

function headerText(line: HeaderLine): Buffer {
  switch (line.kind) {
    case 'obs-text':
      return Buffer.concat([Buffer.from(`${line.name}: `), Buffer.from(line.bytes), Buffer.from('\r\n')]);
    case 'crlf-injection':
      return Buffer.from(`${line.name}: a\r\n${line.injected}\r\n`, 'latin1');
    case 'malformed':
      return Buffer.from(
        {
          'bare CR in a value': 'X-Custom: a\rb\r\n',
          'bare LF in a value': 'X-Custom: a\nb\r\n',
          'NUL in a value': 'X-Custom: a\0b\r\n',
          'control character in a value': 'X-Custom: a\x01\x1bb\r\n',
          'obs-fold': 'X-Custom: a\r\n  folded\r\n',
          'no colon': 'X-Custom a\r\n',
          'space before the colon': 'X-Custom : a\r\n',
          'byte above 0x7f in a name': 'X-\xe9: a\r\n',
          'CRLF injection without a colon': 'X-Custom: a\r\nInjected\r\n',
        }[line.variant],
        'latin1',
      );
  }
}

/** The parts of a case a property fixes; the rest vary freely. */
type Focus = Partial<{ [K in keyof RawCase]: fc.Arbitrary<RawCase[K]> }>;

function rawCase(focus: Focus): fc.Arbitrary<RawCase> {
  return fc.record({
    ws: fc.nat({ max: WORKSPACES - 1 }),
    op: fc.nat({ max: operations.length - 1 }),
    auth: fc.constantFrom(true, true, true, false),
    lines: fc.constant([]),
    framing: fc.oneof(
      { weight: 4, arbitrary: fc.constant<Framing>('exact') },
      { weight: 1, arbitrary: fc.constant<Framing>('chunked') },
    ),
    absurdLength: fc.oneof(fc.integer({ min: 65_537, max: 2 ** 31 }), fc.constantFrom(2 ** 32 - 1, 1e12, 1e15 - 1)),
    body: bodySpec(hostileJson(['name', 'scoreA', 'home', 'sceneId', 'layer', 'action', 'mapping', 'url'])),
    contentType: fc.constantFrom(
      'application/json' as const,
      'application/json' as const,
      'text/plain' as const,
      'none' as const,
    ),
    pipelineHealth: fc.constant(false),
    padding: fc.constant(0),
    ...focus,
  });
}

const HEALTH = Buffer.from('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');

function chunked(body: Buffer): Buffer {
  if (body.length === 0) return Buffer.from('0\r\n\r\n');
  const half = Math.ceil(body.length / 2);
  const parts = [body.subarray(0, half), body.subarray(half)].filter((p) => p.length > 0);
  return Buffer.concat([
    ...parts.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]),
    Buffer.from('0\r\n\r\n'),
  ]);
}

function build(c: RawCase): {
  bytes: Buffer;
  op: Operation;
  malformed: boolean;
  smuggle: boolean;
  headerLines: number;
} {
  const op = operations[c.op]!;
  const ws = world.workspaces[c.ws]!;
  const body = bodyBytes(c.body) ?? Buffer.alloc(0);
  const head: Buffer[] = [Buffer.from(`${op.method} ${fillPath(op, ws, world)} HTTP/1.1\r\nHost: localhost\r\n`)];
  if (c.auth) head.push(Buffer.from(`Authorization: Bearer ${ws.key}\r\n`));
  if (c.contentType !== 'none') head.push(Buffer.from(`Content-Type: ${c.contentType}\r\n`));
  head.push(...c.lines.map(headerText));
  head.push(...Array.from({ length: c.padding }, (_, n) => Buffer.from(`X-Pad-${n}: 1\r\n`)));
  let payload = body;
  switch (c.framing) {
    case 'exact':
      head.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
      break;
    case 'chunked':
      head.push(Buffer.from('Transfer-Encoding: chunked\r\n'));
      payload = chunked(body);
      break;
    case 'repeated':
      head.push(Buffer.from(`Content-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n`));
      break;
    case 'repeated, different':
      head.push(Buffer.from(`Content-Length: ${body.length}\r\nContent-Length: ${body.length + 5}\r\n`));
      break;
    case 'absurd':
      head.push(Buffer.from(`Content-Length: ${c.absurdLength}\r\n`));
      break;
    case 'with Transfer-Encoding':
      head.push(Buffer.from(`Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`));
      payload = chunked(body);
      break;
  }
  const headBytes = Buffer.concat([...head, Buffer.from('\r\n')]);
  const headerLines = headBytes.toString('latin1').split('\r\n').length - 3;
  const tooMany = DOCUMENTED_MAX_HEADER_LINES !== null && headerLines > DOCUMENTED_MAX_HEADER_LINES;
  const malformed = c.lines.some((l) => l.kind === 'malformed') || tooMany;
  // A request pipelined behind one still being answered closes the connection (docs/deploy.md), so a health check
  // rides along only behind framings that are refused: there it is a smuggling attempt, and must never be answered.
  const smuggle = c.pipelineHealth && c.framing !== 'exact' && c.framing !== 'chunked';
  const bytes = Buffer.concat([headBytes, payload, ...(smuggle ? [HEALTH] : [])]);
  return { bytes, op, malformed, smuggle, headerLines };
}

/** What a failure prints: the request as a shell command that replays it. */
function replay(bytes: Buffer): string {
  const shown = bytes.length > 600 ? Buffer.concat([bytes.subarray(0, 600)]) : bytes;
  const escaped = [...shown]
    .map((b) =>
      b >= 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c
        ? String.fromCharCode(b)
        : `\\x${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
  return `printf '${escaped}'${bytes.length > 600 ? ` (first 600 of ${bytes.length} bytes)` : ''} | nc 127.0.0.1 $PORT`;
}

function judge(c: RawCase, built: ReturnType<typeof build>, reply: RawReply): string[] {
  const out: string[] = [];
  const { op, malformed } = built;
  const sent = built.bytes.toString('latin1');
  const allowed = allowedStatuses(op, false);
  const answers = reply.answers;
  const refusedFraming = c.framing === 'repeated' || c.framing === 'repeated, different';
  const closesAtOnce = c.framing === 'with Transfer-Encoding' || c.framing === 'absurd';
  // The pipelined health check is answered on its own: judge it apart.
  const [first, ...rest] = answers;
  if (first) out.push(...violations(first, { allowed, sent }));
  if (rest.length > 0) out.push(`answered ${rest.length} more request(s), smuggled behind a refused framing`);
  if (reply.raw.length > 0 && answers.length === 0)
    out.push(`sent bytes that are not an HTTP response: ${JSON.stringify(reply.raw.slice(0, 120))}`);
  if (!first) {
    if (malformed) return out; // dropped unanswered: docs/deploy.md, "a malformed … header line"
    // Refused framings may also be closed before the 400 is written (test/http-hardening.test.ts pins both).
    if ((closesAtOnce || refusedFraming) && reply.closedAfterMs !== null && reply.closedAfterMs < AT_ONCE_MS)
      return out;
    out.push(
      reply.closedAfterMs === null
        ? `no answer within ${answerMs} ms (a hang)`
        : `closed after ${reply.closedAfterMs} ms without an answer`,
    );
    if (reply.closedAfterMs === null) answerMs = 500;
    return out;
  }
  if (refusedFraming) {
    if (first.status !== 400) out.push(`a repeated Content-Length answered ${first.status}, not 400`);
    if (reply.closedAfterMs === null || reply.closedAfterMs > AT_ONCE_MS)
      out.push('a refused framing left the connection open');
  }
  if (c.framing === 'absurd' && first.status !== 413)
    out.push(`Content-Length ${c.absurdLength} answered ${first.status}, not 413`);
  return out;
}

async function fuzzRaw(name: string, cases: fc.Arbitrary<RawCase>, numRuns: number): Promise<void> {
  await assertProperty(
    name,
    fc.asyncProperty(cases, async (c) => {
      if (broken) throw new Error(`the server stopped answering after an earlier case:\n  ${broken}`);
      const built = build(c);
      // Refused framings are followed to the close (it must come at once); others until the first answer.
      const refused = c.framing !== 'exact' && c.framing !== 'chunked';
      const waitMs = refused ? AT_ONCE_MS + 500 : built.malformed ? SILENCE_MS : answerMs;
      const reply = await rawExchange(world.server.port, built.bytes, waitMs, refused ? Infinity : 1);
      const outcome =
        reply.answers.length > 0 ? 'answered' : reply.closedAfterMs !== null ? 'closed unanswered' : 'silent';
      tally.add(
        `${outcome}${built.malformed ? ' (malformed)' : ''} ${reply.answers.map((a) => `${a.status} ${codeOf(a)}`.trim()).join(' + ')}`.trim(),
      );
      if (c.framing === 'absurd' && reply.answers.length === 0)
        tally.note(`Content-Length ${c.absurdLength}: connection closed without the documented 413`);
      const problems = [...uncaughtViolations(uncaught), ...judge(c, built, reply)];
      const health = await healthStatus(world.server.url);
      if (health !== 200) {
        problems.push(`GET /healthz then answered ${health || 'nothing'}`);
        broken = `${problems.join('; ')}\n  ${replay(built.bytes)}`;
      }
      fail(
        problems,
        `${built.op.name} (${built.headerLines} header lines)\n  ${replay(built.bytes)}\n  ← ${JSON.stringify(reply.raw.slice(0, 300))}`,
      );
    }),
    numRuns,
  );
  expect(await healthStatus(world.server.url)).toBe(200);
}

it('answers requests whose header values carry bytes that are not UTF-8 (obs-text)', async () => {
  const obsTextLine = headerLine.filter((l) => l.kind === 'obs-text');
  await fuzzRaw(
    'obs-text header values',
    rawCase({ lines: fc.array(obsTextLine, { minLength: 1, maxLength: 3 }) }),
    runs(60),
  );
}, 120_000);

it('answers requests with CR/LF injected into header values, or drops the malformed header lines docs/deploy.md lets it drop', async () => {
  const injected = headerLine.filter((l) => l.kind !== 'obs-text');
  await fuzzRaw(
    'CR/LF and malformed header lines',
    rawCase({ lines: fc.array(injected, { minLength: 1, maxLength: 3 }) }),
    runs(40),
  );
}, 120_000);

it('answers requests with many header lines, or drops those over the limit docs/deploy.md documents', async () => {
  await fuzzRaw('many header lines', rawCase({ padding: fc.integer({ min: 1, max: 80 }) }), runs(30));
}, 120_000);

it('answers or refuses hostile framing and bodies as documented, and never answers what is smuggled behind', async () => {
  await fuzzRaw(
    'framing and bodies',
    rawCase({
      framing: fc.oneof(
        { weight: 4, arbitrary: fc.constant<Framing>('exact') },
        { weight: 2, arbitrary: fc.constant<Framing>('chunked') },
        {
          weight: 3,
          arbitrary: fc.constantFrom<Framing>('repeated', 'repeated, different', 'absurd', 'with Transfer-Encoding'),
        },
      ),
      pipelineHealth: fc.boolean(),
    }),
    runs(80),
  );
}, 120_000);

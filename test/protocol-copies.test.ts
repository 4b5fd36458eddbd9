/**
 * The protocol is written once, in protocol/ (@onair/protocol): no copy of one of its parts creeps back into the
 * server, the output page, the dashboard or the TypeScript SDK (whose only copy is the generated one, checked by
 * sdk-generated.test.ts). Each pattern below is the tell-tale of a part written out again by hand.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCANNED = ['src', 'renderer/src', 'dashboard/src', 'sdks/typescript/src'];
const GENERATED = 'sdks/typescript/src/generated/';

const CLIENTS = ['renderer/src', 'dashboard/src', 'sdks/typescript/src'];

/**
 * What a copy looks like, what to import from @onair/protocol instead, and where to look (default: everywhere
 * scanned). The server reads frames too, but only as a follower node applying them to the engine's own runtime
 * (src/cluster/following.ts): the reducer's state is a client's.
 */
const COPIES: { part: string; pattern: RegExp; in?: string[] }[] = [
  { part: 'the name rule (NAME_PATTERN, WHOLE_PLACEHOLDER)', pattern: /\[A-Za-z_\]\[A-Za-z0-9_\]/ },
  { part: 'the field path rule (FIELD_PATH_PATTERN)', pattern: /\[A-Za-z0-9_\\*-\]\{1,64\}/ },
  { part: 'the colour rule (HEX_COLOR)', pattern: /\^#\(\?:\[0-9a-f/i },
  { part: 'the body limit (MAX_BODY_BYTES, BODY_LIMIT_RULE)', pattern: /64 \* 1024|limited to 64 KiB/ },
  { part: 'the clock bounds (MAX_CLOCK_MS, CLOCK_SET_RULE)', pattern: /100 \* (HOUR|3_?600)|360000000/ },
  { part: 'the error catalogue (ERROR_CATALOGUE, errorEntry)', pattern: /preview_empty: \{ status/ },
  { part: 'the close codes (CloseCode)', pattern: /[=!]==\s*4\d{3}\b/ },
  { part: 'the subprotocol (SUBPROTOCOL)', pattern: /'onair\.v1'/ },
  { part: 'server-message parsing (parseServerMessage)', pattern: /'snapshot', 'frame', 'ack', 'error', 'heartbeat'/ },
  { part: 'the frame reducer (stateFromSnapshot, applyFrame)', pattern: /\.prev !== /, in: CLIENTS },
  { part: 'reconnect backoff (reconnectDelay)', pattern: /2 \*\* Math\.min\(attempt/ },
];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** `file:line  part` for every line outside the protocol that looks like a copy of one of its parts. */
function protocolCopies(root: string): string[] {
  const found: string[] = [];
  for (const file of SCANNED.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (relative.startsWith(GENERATED)) continue;
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const copy of COPIES) {
          const scanned = (copy.in ?? SCANNED).some((dir) => relative.startsWith(`${dir}/`));
          if (scanned && copy.pattern.test(line)) found.push(`${relative}:${i + 1}  ${copy.part}`);
        }
      });
  }
  return found;
}

it('finds no copy of the protocol outside protocol/ (import it from @onair/protocol instead)', () => {
  expect(protocolCopies(ROOT)).toEqual([]);
});

it('would find one: every pattern matches its part as the protocol writes it', () => {
  const protocol = sourceFiles(path.join(ROOT, 'protocol', 'src'))
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
  const written = COPIES.filter(({ pattern }) => pattern.test(protocol)).map(({ part }) => part);
  // Close codes are named, never compared as numbers, in the protocol itself.
  expect(written).toEqual(COPIES.map(({ part }) => part).filter((part) => !part.startsWith('the close codes')));
});

/**
 * Summarises a V8 .cpuprofile (from `--cpu-prof`, or from a benchmark's `--profile`): self time by
 * function and by file or package, and inclusive time of the functions that own the most work.
 *   npx tsx bench/profile-summary.ts bench/results/prof/<file>.cpuprofile [top]
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function where(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  for (const dir of ['/src/', '/bench/']) if (url.includes(dir)) return url.slice(url.indexOf(dir) + 1);
  if (url.startsWith('node:')) return url;
  return url ? 'other' : '(native/vm)';
}

const keyOf = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

function table(m: Map<string, number>, total: number, top: number): string {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
}

function add(m: Map<string, number>, k: string, v: number): void {
  m.set(k, (m.get(k) ?? 0) + v);
}

/** Inclusive time per function, counting a function once per stack (recursion is not double-counted). */
function inclusive(p: Profile, self: Map<number, number>): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = keyOf(byId.get(cur)!);
      if (!seen.has(k)) add(out, k, us);
      seen.add(k);
    }
  }
  return out;
}

export function summarise(file: string, top = 25): string {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    add(fn, keyOf(n), us);
    add(files, where(n.callFrame.url), us);
  }
  const incl = inclusive(p, self);
  for (const k of ['(root) (native/vm):1', '(root) (native/vm):0']) incl.delete(k);
  return [
    `${file}: ${(total / 1e6).toFixed(2)} s sampled`,
    `-- self time by function --\n${table(fn, total, top)}`,
    `-- self time by file/package --\n${table(files, total, top)}`,
    `-- inclusive time by function --\n${table(incl, total, top)}`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  console.log(summarise(process.argv[2]!, Number(process.argv[3] ?? 25)));
}

/**
 * A strict parser for the Prometheus text exposition format (version 0.0.4), for tests: it throws on
 * anything a Prometheus server would reject or that breaks the format's rules — a malformed line, a
 * sample before its family's TYPE, a sample whose name does not belong to its family, a family declared
 * twice, a duplicate series, a histogram whose buckets are not cumulative or whose +Inf bucket differs
 * from its _count.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
export type Labels = Record<string, string>;

export interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+(-?\\d+))?$`);
const META = new RegExp(`^#\\s+(HELP|TYPE)\\s+(${NAME})(?:\\s(.*))?$`);
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<MetricType, string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  let current: Family | null = null;
  const series = new Set<string>();
  text.split('\n').forEach((line, i) => {
    const fail = (why: string) => {
      throw new Error(`metrics line ${i + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    const meta = META.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta as unknown as [string, string, string, string?];
      if (kind === 'HELP') {
        if (helps.has(name)) fail('a second HELP');
        helps.set(name, rest);
        return;
      }
      if (!TYPES.has(rest as MetricType)) fail('an unknown TYPE');
      if (families.has(name)) fail('a family declared twice');
      current = { name, type: rest as MetricType, help: '', samples: [] };
      families.set(name, current);
      return;
    }
    if (line.startsWith('#')) return;
    const m = SAMPLE.exec(line);
    if (!m) return fail('not a sample');
    const [, name, labelText, valueText] = m as unknown as [string, string, string | undefined, string];
    const family: Family | null = current;
    if (!family) return fail('a sample before any TYPE');
    const suffix = name.slice(family.name.length);
    if (!name.startsWith(family.name) || !SUFFIXES[family.type].includes(suffix)) fail(`not part of ${family.name}`);
    const labels = parseLabels(labelText ?? '', fail);
    if (suffix === '_bucket' && labels.le === undefined) fail('a bucket without le');
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) fail('a duplicate series');
    series.add(key);
    family.samples.push({ name, labels, value: parseValue(valueText, fail) });
  });
  for (const f of families.values()) {
    f.help = helps.get(f.name) ?? '';
    if (f.type === 'histogram') checkHistogram(f);
  }
  return families;
}

function parseLabels(text: string, fail: (why: string) => never): Labels {
  const labels: Labels = {};
  const re = /\s*([^=\s]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(,|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) fail('malformed labels');
    const [, name, raw] = m as unknown as [string, string, string];
    if (!LABEL_NAME.test(name) || name in labels) fail(`bad or repeated label ${name}`);
    labels[name] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = re.lastIndex;
  }
  return labels;
}

/** As Prometheus reads values (Go's ParseFloat): Inf and NaN in any case; prom-client writes "Nan". */
function parseValue(text: string, fail: (why: string) => never): number {
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Infinity;
  if (word === '-inf') return -Infinity;
  if (word === 'nan') return NaN;
  const n = Number(text);
  if (text === '' || Number.isNaN(n)) fail('not a number');
  return n;
}

/** Per series: buckets cumulative, a +Inf bucket equal to _count, and a _sum. */
function checkHistogram(f: Family): void {
  for (const labels of seriesOf(f)) {
    const h = histogram(f, labels);
    const bounds = [...h.buckets.keys()];
    if (bounds.at(-1) !== Infinity) throw new Error(`${f.name}: no +Inf bucket`);
    const counts = [...h.buckets.values()];
    if (counts.some((c, i) => i > 0 && c < counts[i - 1]!)) throw new Error(`${f.name}: buckets not cumulative`);
    if (h.buckets.get(Infinity) !== h.count) throw new Error(`${f.name}: +Inf bucket differs from _count`);
    if (!Number.isFinite(h.sum)) throw new Error(`${f.name}: no _sum`);
  }
}

/** The label sets of a family's series (a histogram's without `le`). */
export function seriesOf(f: Family): Labels[] {
  const seen = new Map<string, Labels>();
  for (const s of f.samples) {
    const labels = withoutLe(s.labels);
    seen.set(JSON.stringify(Object.entries(labels).sort()), labels);
  }
  return [...seen.values()];
}

/** The value of the one sample with exactly these labels, or undefined. */
export function valueOf(f: Family, labels: Labels = {}, name = f.name): number | undefined {
  return f.samples.find((s) => s.name === name && sameLabels(s.labels, labels))?.value;
}

export interface HistogramSeries {
  count: number;
  sum: number;
  /** Upper bound → cumulative count, in increasing order of bound. */
  buckets: Map<number, number>;
}

export function histogram(f: Family, labels: Labels): HistogramSeries {
  const buckets = f.samples
    .filter((s) => s.name === `${f.name}_bucket` && sameLabels(withoutLe(s.labels), labels))
    .map((s) => [parseValue(s.labels.le!, fail), s.value] as const)
    .sort((a, b) => a[0] - b[0]);
  return {
    count: valueOf(f, labels, `${f.name}_count`) ?? NaN,
    sum: valueOf(f, labels, `${f.name}_sum`) ?? NaN,
    buckets: new Map(buckets),
  };
}

function fail(why: string): never {
  throw new Error(why);
}

function withoutLe(labels: Labels): Labels {
  return Object.fromEntries(Object.entries(labels).filter(([name]) => name !== 'le'));
}

function sameLabels(a: Labels, b: Labels): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

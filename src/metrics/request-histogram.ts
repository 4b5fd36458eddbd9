/**
 * The request latency histogram, cheap enough for the hottest route. prom-client's Histogram.observe
 * validates and hashes its labels on every call: about 1 µs, 3 % of a PATCH's CPU in bench/metrics.ts,
 * over the 2 % metrics may cost the hot path. Here an observation finds its series in two small maps (the
 * route string is the router's own, so its hash is cached) and adds to an array. The histogram is
 * registered in the server's prom-client Registry and written out by it like every other metric.
 */
import type { Metric, Registry } from 'prom-client';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Any token is a valid HTTP method: an unknown one must not add a series. */
const OTHER_METHOD = METHODS.length;
const METHOD_INDEX = new Map<string, number>(METHODS.map((m, i) => [m, i]));

interface Series {
  labels: { route: string; method: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export interface HistogramValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly routes = new Map<string, Map<number, Series>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  register(registry: Registry): this {
    // prom-client writes out any metric with this shape (name, help, type and get()).
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    const m = METHOD_INDEX.get(method) ?? OTHER_METHOD;
    let byKey = this.routes.get(route);
    if (!byKey) this.routes.set(route, (byKey = new Map<number, Series>()));
    const key = status * 8 + m;
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = this.series(route, METHODS[m] ?? 'other', status)));
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  /** The exposition, as prom-client's own metrics give it to the registry. */
  async get() {
    const values: HistogramValue[] = [];
    for (const byKey of this.routes.values()) for (const s of byKey.values()) this.write(s, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  private write(s: Series, out: HistogramValue[]): void {
    let cumulative = 0;
    this.bounds.forEach((le, i) => {
      cumulative += s.counts[i]!;
      out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
    });
    out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
    out.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
    out.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
  }

  private series(route: string, method: string, status: number): Series {
    const labels = { route, method, status: String(status) };
    return { labels, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
  }
}

/**
 * A small Prometheus text registry: counters and gauges with fixed names, no labels beyond `fps`.
 */

type Sample = { name: string; help: string; type: 'counter' | 'gauge'; value: () => number | Map<string, number> };

export class Metrics {
  private readonly samples: Sample[] = [];
  private readonly counters = new Map<string, number>();

  counter(name: string, help: string): (by?: number) => void {
    this.counters.set(name, 0);
    this.samples.push({ name, help, type: 'counter', value: () => this.counters.get(name) ?? 0 });
    return (by = 1) => this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  gauge(name: string, help: string, value: () => number | Map<string, number>): void {
    this.samples.push({ name, help, type: 'gauge', value });
  }

  /** A value per label set, read when scraped (for example ticks per frame rate). */
  labelled(name: string, help: string, type: 'counter' | 'gauge', value: () => Map<string, number>): void {
    this.samples.push({ name, help, type, value });
  }

  render(): string {
    const lines: string[] = [];
    for (const s of this.samples) {
      lines.push(`# HELP ${s.name} ${s.help}`, `# TYPE ${s.name} ${s.type}`);
      const v = s.value();
      if (typeof v === 'number') lines.push(`${s.name} ${v}`);
      else for (const [labels, n] of v) lines.push(`${s.name}{${labels}} ${n}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

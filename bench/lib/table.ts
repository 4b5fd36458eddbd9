/**
 * The one output format of every benchmark: a markdown table of baseline, onair, ratio and target,
 * with notes that say what was measured and what was not.
 */
export interface Row {
  metric: string;
  baseline: string;
  onair: string;
  ratio: string;
  target: string;
  /** null: informational row, no target. */
  met: boolean | null;
}

export interface Table {
  title: string;
  command: string;
  rows: Row[];
  notes: string[];
}

export const fmt = {
  rate: (n: number) =>
    n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k/s` : `${n.toFixed(0)}/s`,
  ms: (n: number) => `${n.toFixed(1)} ms`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  us: (n: number) => `${n.toFixed(1)} µs`,
  pct: (n: number) => `${(n * 100).toFixed(n < 0.01 ? 3 : 1)} %`,
  x: (n: number) => `${n.toFixed(2)}×`,
};

/** A row comparing onair to a baseline by ratio (onair / baseline). */
export function ratioRow(
  metric: string,
  baselineName: string,
  baseline: number,
  onair: number,
  show: (n: number) => string,
  target?: { min?: number; max?: number },
): Row {
  const ratio = onair / baseline;
  const met = target
    ? (target.min === undefined || ratio >= target.min) && (target.max === undefined || ratio <= target.max)
    : null;
  const targetText = target
    ? [target.min !== undefined ? `≥ ${target.min}×` : '', target.max !== undefined ? `≤ ${target.max}×` : '']
        .join(' ')
        .trim()
    : '—';
  return {
    metric,
    baseline: `${baselineName}: ${show(baseline)}`,
    onair: show(onair),
    ratio: fmt.x(ratio),
    target: targetText,
    met,
  };
}

/** A row whose target is an absolute bound on onair's value. */
export function boundRow(
  metric: string,
  baseline: string,
  onair: number,
  show: (n: number) => string,
  bound: { max?: number; min?: number; text: string },
  ratio = '—',
): Row {
  const met = (bound.max === undefined || onair <= bound.max) && (bound.min === undefined || onair >= bound.min);
  return { metric, baseline, onair: show(onair), ratio, target: bound.text, met };
}

export function infoRow(metric: string, baseline: string, onair: string, ratio = '—'): Row {
  return { metric, baseline, onair, ratio, target: '—', met: null };
}

const metText = (m: boolean | null) => (m === null ? '' : m ? '✅ met' : '❌ missed');

export function renderTable(t: Table): string {
  const lines = [`### ${t.title}`, '', `\`${t.command}\``];
  if (t.rows.length > 0) {
    lines.push(
      '',
      '| metric | baseline | onair | ratio | target | met? |',
      '|---|---|---|---|---|---|',
      ...t.rows.map(
        (r) => `| ${r.metric} | ${r.baseline} | ${r.onair} | ${r.ratio} | ${r.target} | ${metText(r.met)} |`,
      ),
    );
  }
  if (t.notes.length > 0) lines.push('', ...t.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

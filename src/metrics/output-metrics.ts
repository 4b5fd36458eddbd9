/**
 * Output pages (docs/outputs.md): reports taken and refused (by reason), output events raised (by type), pages
 * refused for their token, confirmations, and the outputs connected by health. The outputs keep plain counts
 * (OutputCounters); they are copied here when scraped.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { OutputHealth } from '@onair/protocol';
import type { OutputCounters } from '../outputs/output-counters.js';

export function outputMetrics(
  registry: Registry,
  counters: OutputCounters,
  byHealth: () => Record<OutputHealth, number>,
): void {
  const registers = [registry];
  const copied = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  const byLabel = (name: string, help: string, label: string, read: () => Record<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: [label],
      registers,
      collect() {
        this.reset();
        for (const [value, n] of Object.entries(read())) this.inc({ [label]: value }, n);
      },
    });
  copied('onair_output_reports_total', 'Painted reports taken from output pages', () => counters.reports);
  byLabel(
    'onair_output_reports_rejected_total',
    'Painted reports (or layers of one) not taken as sent, by reason: flood, invalid, not_output, frame_ahead, clipped, not_on_bus',
    'reason',
    () => counters.rejected,
  );
  byLabel('onair_output_events_total', 'Output events raised, by type', 'type', () => counters.events);
  copied(
    'onair_output_events_suppressed_total',
    'output.error events over an output’s cap, not raised',
    () => counters.suppressed,
  );
  copied('onair_output_refused_total', 'Output pages refused for a wrong or rotated token', () => counters.refused);
  copied(
    'onair_output_confirmations_total',
    'On-air instances confirmed painted by an output',
    () => counters.confirmations,
  );
  new Gauge({
    name: 'onair_outputs',
    help: 'Output pages connected to this server, by health: ok, lagging, error',
    labelNames: ['health'] as const,
    registers,
    collect() {
      for (const [health, n] of Object.entries(byHealth())) this.set({ health }, n);
    },
  });
}

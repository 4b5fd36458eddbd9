/**
 * How the dashboard names an output and its health in words (docs/outputs.md): the chips, the alerts and the event
 * feed say the same thing, and never by colour alone.
 */
import type { OutputHealth, OutputKind, OutputsMessage, OutputView } from '@onair/protocol';

const KINDS: Record<OutputKind, string> = { obs: 'OBS', casparcg: 'CasparCG', vmix: 'vMix', browser: 'browser' };
const HEALTHS: Record<OutputHealth, string> = { ok: 'OK', lagging: 'lagging', error: 'error' };

export function kindLabel(kind: unknown): string {
  return typeof kind === 'string' && kind in KINDS ? KINDS[kind as OutputKind] : String(kind);
}

export function healthLabel(health: OutputHealth): string {
  return HEALTHS[health];
}

/** "OBS (program) at 10.0.4.21": an output as the operator recognises it. */
export function outputName(o: { kind?: unknown; bus?: unknown; address?: unknown }): string {
  return `${kindLabel(o.kind)} (${text(o.bus, 'program')}) at ${text(o.address, '?')}`;
}

/** A string field of an event's data, or `fallback` when it is something else. */
export function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

const RANK: Record<OutputHealth, number> = { ok: 0, lagging: 1, error: 2 };

/**
 * What went wrong between two `outputs` messages, in words: outputs gone, outputs that became lagging or failing
 * (new ones included). `before` null (a fresh connection) reports only what is unhealthy now.
 */
export function outputAlerts(before: OutputsMessage | null, after: OutputsMessage): string[] {
  const old = new Map<string, OutputView>((before?.outputs ?? []).map((o) => [o.id, o]));
  const alerts: string[] = [];
  // The message holds the 100 least healthy: one missing from a full message may only have been left out.
  if (before && after.outputs.length === after.total) {
    for (const o of old.values()) {
      if (!after.outputs.some((n) => n.id === o.id)) alerts.push(`Output lost: ${outputName(o)}`);
    }
  }
  for (const o of after.outputs) {
    const was = old.get(o.id)?.health ?? 'ok';
    if (RANK[o.health] <= RANK[was]) continue;
    alerts.push(
      o.health === 'error'
        ? `Output error: ${outputName(o)} could not load ${o.errors.at(-1)?.url ?? 'a file'}`
        : `Output lagging: ${outputName(o)}, ${o.lagFrames} frames behind`,
    );
  }
  return alerts;
}

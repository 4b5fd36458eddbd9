/** Row shapes of the SQLite tables and their mapping to domain records: the shared ones are in ../record-rows.ts. */
import type { LiveState } from '../../engine/index.js';
import type { ClockState, InputValue, PreviewEntry, ProgramEntry } from '@onair/protocol';
import { asIs, busFromJson, type ChannelRow, type Text } from '../record-rows.js';

export * from '../record-rows.js';

export interface ClockRow {
  channel_id: string;
  name: string;
  running: number;
  ms: number;
  at: number;
}

/**
 * Clocks and buses are never changed in place, only replaced (the engine copies before writing), so the
 * channels that have none (most, when thousands are loaded) share one empty map and one empty bus.
 */
const NO_CLOCKS: ReadonlyMap<string, ClockState> = new Map();

export function liveFromRow(
  r: ChannelRow,
  values: [string, string][],
  clocks: ClockRow[] = [],
  text: Text = asIs,
): LiveState {
  return {
    values: new Map(values.map(([name, json]) => [text(name), JSON.parse(json) as Exclude<InputValue, null>])),
    clocks:
      clocks.length === 0
        ? (NO_CLOCKS as Map<string, ClockState>)
        : new Map(clocks.map((c) => [text(c.name), { running: c.running === 1, ms: c.ms, at: c.at }])),
    program: busFromJson<ProgramEntry>(r.program, text),
    preview: busFromJson<PreviewEntry>(r.preview, text),
    frame: r.frame,
    updatedAt: text(r.live_updated_at),
  };
}

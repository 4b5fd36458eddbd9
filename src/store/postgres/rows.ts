/**
 * Row shapes of the Postgres tables behind the Store itself and their mapping to domain records: the shared ones are
 * in ../record-rows.ts.
 */
import type { LiveState } from '../../engine/index.js';
import type { ClockState, InputValue, PreviewEntry, ProgramEntry } from '@onair/protocol';
import { asIs, busFromJson, type ChannelRow } from '../record-rows.js';

export * from '../record-rows.js';

export const CHANNEL_COLUMNS = `id, org_id, name, fps, width, height, output_token, created_at, updated_at,
  program, preview, frame, live_updated_at`;

export interface InputRow {
  channel_id: string;
  name: string;
  value: string;
}

export interface ClockRow {
  channel_id: string;
  name: string;
  running: boolean;
  ms: number;
  at: number;
}

/**
 * Clocks and buses are never changed in place, only replaced (the engine copies before writing), so the channels
 * that have none (most, when thousands are loaded) share one empty map and one empty bus.
 */
const NO_CLOCKS: ReadonlyMap<string, ClockState> = new Map();

export function liveFromRow(r: ChannelRow, values: InputRow[] = [], clocks: ClockRow[] = [], text = asIs): LiveState {
  return {
    values: new Map(values.map((v) => [text(v.name), JSON.parse(v.value) as Exclude<InputValue, null>])),
    clocks:
      clocks.length === 0
        ? (NO_CLOCKS as Map<string, ClockState>)
        : new Map(clocks.map((c) => [text(c.name), { running: c.running, ms: c.ms, at: c.at }])),
    program: busFromJson<ProgramEntry>(r.program, text),
    preview: busFromJson<PreviewEntry>(r.preview, text),
    frame: r.frame,
    updatedAt: text(r.live_updated_at),
  };
}

/** Groups rows by their channel, keeping their order. */
export function byChannel<R extends { channel_id: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const row of rows) {
    const list = out.get(row.channel_id);
    if (list) list.push(row);
    else out.set(row.channel_id, [row]);
  }
  return out;
}

/**
 * One tick's writes, inside its transaction: every channel's new values, clocks, live state, prepared show
 * (./postgres-show.ts), as-run lines (./postgres-as-run.ts) and events, as one
 * statement per kind of write whatever the number of channels (the rows go as arrays, unnested by Postgres).
 * A bus is written only when it changed. A tick holds one change per channel (the engine visits each channel
 * once per tick).
 */
import type { ChannelChange } from '../../engine/index.js';
import type { Sql } from './database.js';
import type { PostgresEventLog } from './postgres-event-log.js';
import { writeAsRun } from './postgres-as-run.js';
import { writeShow } from './postgres-show.js';

const DELETE_INPUTS = `DELETE FROM channel_inputs AS i USING unnest($1::text[], $2::text[]) AS d(channel_id, name)
  WHERE i.channel_id = d.channel_id AND i.name = d.name`;
const UPSERT_INPUTS = `INSERT INTO channel_inputs (channel_id, name, value)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT (channel_id, name) DO UPDATE SET value = excluded.value`;
const DELETE_CLOCKS = `DELETE FROM channel_clocks AS c USING unnest($1::text[], $2::text[]) AS d(channel_id, name)
  WHERE c.channel_id = d.channel_id AND c.name = d.name`;
const UPSERT_CLOCKS = `INSERT INTO channel_clocks (channel_id, name, running, ms, at, period)
  SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::float8[], $5::float8[], $6::integer[])
  ON CONFLICT (channel_id, name) DO UPDATE
    SET running = excluded.running, ms = excluded.ms, at = excluded.at, period = excluded.period`;
// A NULL bus leaves the stored one as it is. A live state of NULL updatedAt is refused by the column's NOT NULL,
// failing the whole tick.
const UPDATE_LIVE = `UPDATE channels SET program = coalesce(v.program, channels.program),
    preview = coalesce(v.preview, channels.preview), frame = v.frame, live_updated_at = v.updated_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS v(id, program, preview, frame, updated_at)
  WHERE channels.id = v.id`;

/** A tick's rows, one array per column. */
class TickRows {
  readonly gone = { channels: [] as string[], names: [] as string[] };
  readonly inputs = { channels: [] as string[], names: [] as string[], values: [] as string[] };
  readonly goneClocks = { channels: [] as string[], names: [] as string[] };
  readonly clocks = {
    channels: [] as string[],
    names: [] as string[],
    running: [] as boolean[],
    ms: [] as number[],
    at: [] as number[],
    period: [] as number[],
  };
  readonly live = {
    ids: [] as string[],
    program: [] as (string | null)[],
    preview: [] as (string | null)[],
    frames: [] as number[],
    updatedAt: [] as (string | null)[],
  };

  add(c: ChannelChange): void {
    for (const [name, value] of c.setValues) {
      if (value === null) {
        this.gone.channels.push(c.channelId);
        this.gone.names.push(name);
      } else {
        this.inputs.channels.push(c.channelId);
        this.inputs.names.push(name);
        this.inputs.values.push(JSON.stringify(value));
      }
    }
    for (const [name, state] of c.setClocks ?? []) {
      if (state === null) {
        this.goneClocks.channels.push(c.channelId);
        this.goneClocks.names.push(name);
      } else {
        this.clocks.channels.push(c.channelId);
        this.clocks.names.push(name);
        this.clocks.running.push(state.running);
        this.clocks.ms.push(state.ms);
        this.clocks.at.push(state.at);
        this.clocks.period.push(state.period ?? 0);
      }
    }
    this.live.ids.push(c.channelId);
    this.live.program.push(c.program !== undefined ? JSON.stringify(c.live.program) : null);
    this.live.preview.push(c.preview !== undefined ? JSON.stringify(c.live.preview) : null);
    this.live.frames.push(c.live.frame);
    this.live.updatedAt.push(c.live.updatedAt);
  }
}

/** Writes the tick inside `tx`; any failure rejects and the caller's transaction rolls all of it back. */
export async function writeTick(tx: Sql, changes: readonly ChannelChange[], events: PostgresEventLog): Promise<void> {
  const rows = new TickRows();
  for (const c of changes) rows.add(c);
  const { gone, inputs, goneClocks, clocks, live } = rows;
  if (gone.channels.length > 0) await tx.run(DELETE_INPUTS, [gone.channels, gone.names]);
  if (inputs.channels.length > 0) await tx.run(UPSERT_INPUTS, [inputs.channels, inputs.names, inputs.values]);
  if (goneClocks.channels.length > 0) await tx.run(DELETE_CLOCKS, [goneClocks.channels, goneClocks.names]);
  if (clocks.channels.length > 0) {
    const columns = [clocks.channels, clocks.names, clocks.running, clocks.ms, clocks.at, clocks.period];
    await tx.run(UPSERT_CLOCKS, columns);
  }
  if (live.ids.length > 0) {
    await tx.run(UPDATE_LIVE, [live.ids, live.program, live.preview, live.frames, live.updatedAt]);
  }
  await writeShow(tx, changes);
  await writeAsRun(tx, changes);
  await events.write(tx, changes);
}

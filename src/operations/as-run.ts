/**
 * A channel's as-run log (docs/as-run.md): every interval an instance was on program, in the order they began, those
 * that overlap a time range, a page at a time. The same lines answer JSON and CSV (api/as-run/as-run-csv.ts).
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { AsRunRecord } from '../store/as-run-store.js';
import type { ChannelOperation } from './operation.js';
import type { Page } from './paging.js';

/** Lines per page: more than other lists, so that a day's log is one or a few requests. */
export const AS_RUN_PAGE = { default: 100, max: 1000 } as const;

const time = (what: string) =>
  z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: `${what} (ISO 8601; an offset is allowed, Z otherwise).`, example: '2024-03-01T20:00:00Z' });

export const AsRunQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(AS_RUN_PAGE.max).default(AS_RUN_PAGE.default).meta({ example: 100 }),
  cursor: z.string().max(100).optional(),
  from: time('Only intervals still on air at or after this time'),
  to: time('Only intervals that began before this time'),
  format: z.enum(['json', 'csv']).optional().meta({ description: 'The answer’s format; default: by `Accept`.' }),
});

/** An interval as the API answers it. */
export interface AsRunLine extends Omit<AsRunRecord, 'channelId'> {
  /** `endAt` − `startAt`; null while on air. */
  durationMs: number | null;
}

export const listAsRun: ChannelOperation<z.infer<typeof AsRunQuery>, Page<AsRunLine>> = {
  name: 'as-run.list',
  scope: 'channel',
  permission: 'channels:read',
  bucket: 'reads',
  input: AsRunQuery,
  async run({ services: { store }, channel }, { limit, cursor, from, to }) {
    const range = { from: from === undefined ? undefined : utc(from), to: to === undefined ? undefined : utc(to) };
    if (range.from !== undefined && range.to !== undefined && range.from >= range.to) {
      throw new AppError('invalid_request', 'to: must be after from', {
        errors: [{ path: 'to', message: 'must be after from' }],
      });
    }
    const found = await store.asRun.list(channel.id, { limit, after: cursor, ...range });
    return { data: found.records.map(asRunLine), nextCursor: found.nextCursor };
  },
};

export function asRunLine(r: AsRunRecord): AsRunLine {
  const durationMs = r.endAt === null ? null : Date.parse(r.endAt) - Date.parse(r.startAt);
  return {
    id: r.id,
    layer: r.layer,
    sceneId: r.sceneId,
    sceneName: r.sceneName,
    itemId: r.itemId,
    label: r.label,
    values: r.values,
    updatedValues: r.updatedValues,
    startAt: r.startAt,
    startFrame: r.startFrame,
    endAt: r.endAt,
    endFrame: r.endFrame,
    durationMs,
    takenBy: r.takenBy,
    clearedBy: r.clearedBy,
    confirmedAt: r.confirmedAt,
    confirmedBy: r.confirmedBy,
    endInferred: r.endInferred,
  };
}

/** The stored form of a time: UTC, to the millisecond, as the log's times are written and compared. */
function utc(iso: string): string {
  return new Date(iso).toISOString();
}

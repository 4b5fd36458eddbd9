/**
 * What a data source does besides being stored (docs/data-sources.md): a dry run that fetches and maps once and
 * changes nothing, a refresh (fetch now), a cursor move that applies the row it lands on, and the log of recent
 * fetches. A dry run and a refresh count against the workspace's creates, so neither can be used to hammer a site;
 * a cursor move is an on-air change and counts against the channel's updates.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { SourceFetchRecord, SourceRecord } from '../store/source-store.js';
import type { DryRun } from '../sources/source-desk.js';
import type { ChannelContext, ChannelOperation } from './operation.js';
import type { Page } from './paging.js';
import { newSourceConfig, SourceIn } from './source-config.js';
import { findSource, read, SourceRef, sourceView, write, type SourceView } from './sources.js';

const act = { scope: 'channel', permission: 'inputs:write' } as const;

export const SourceRowMove = z
  .union([
    z.strictObject({ move: z.enum(['next', 'previous', 'first']) }),
    z.strictObject({ number: z.number().int().min(1) }),
  ])
  .meta({
    id: 'SourceRowMove',
    description: 'Move the cursor one row (`next`, `previous`) or to the first, or put it on row `number`.',
  });

export const testSource: ChannelOperation<SourceIn, DryRun> = {
  ...write,
  name: 'sources.test',
  input: SourceIn,
  async run(ctx, input) {
    const config = await newSourceConfig(ctx, input);
    return ctx.services.sources.dryRun(ctx.channel.id, config);
  },
};

export const refreshSource: ChannelOperation<{ sourceId: string }, SourceView> = {
  ...act,
  bucket: 'creates',
  name: 'sources.refresh',
  input: SourceRef,
  async run(ctx, { sourceId }) {
    notPaused(await findSource(ctx, sourceId));
    await ctx.services.sources.fetchNow(sourceId);
    return sourceView(await findSource(ctx, sourceId));
  },
};

type RowInput = z.infer<typeof SourceRowMove> & { sourceId: string };

export const moveSourceRow: ChannelOperation<RowInput, SourceView> = {
  ...act,
  bucket: 'updates',
  name: 'sources.row',
  input: z.intersection(SourceRowMove, SourceRef),
  async run(ctx, input) {
    const source = notPaused(await findSource(ctx, input.sourceId));
    if (source.row?.by !== 'cursor') {
      throw new AppError('conflict', `Data source ${source.id} does not pick its row by cursor.`, {
        errors: [{ path: 'row', message: 'set row to {"by": "cursor"} to step through the table' }],
      });
    }
    const move = 'move' in input ? input.move : { number: input.number };
    const outcome = await ctx.services.sources.fetchNow(source.id, { move });
    if (outcome.kind === 'fetched' && outcome.refusal) throw outcome.refusal;
    return sourceView(await findSource(ctx, source.id));
  },
};

export const listSourceFetches: ChannelOperation<{ sourceId: string }, Page<SourceFetchRecord>> = {
  ...read,
  name: 'sources.fetches',
  input: SourceRef,
  async run(ctx: ChannelContext, { sourceId }) {
    await findSource(ctx, sourceId);
    return { data: await ctx.services.store.sources.listFetches(sourceId), nextCursor: null };
  },
};

function notPaused(source: SourceRecord): SourceRecord {
  if (!source.paused) return source;
  throw new AppError('conflict', `Data source ${source.id} is paused: resume it first.`, {
    errors: [{ path: 'paused', message: 'the source is paused' }],
  });
}

/**
 * A channel's data sources (docs/data-sources.md): create, list, read, edit (pause and resume too), delete. What a
 * source does besides being stored (dry runs, refreshes, cursor moves, its fetch log) is in ./source-actions.ts.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { assertRoom } from '../limits/resource-limits.js';
import type { SourceRecord, SourceRow, SourceTable, SourceType } from '../store/source-store.js';
import type { ChannelContext, ChannelOperation } from './operation.js';
import { PageQuery, page, ResourceId, type Page } from './paging.js';
import { newSourceConfig, patchedSourceConfig, SourceIn, SourcePatch } from './source-config.js';

export const SourceRef = z.strictObject({ sourceId: ResourceId });

/** A source as the API shows it (docs/data-sources.md, "The source"). */
export interface SourceView {
  id: string;
  channelId: string;
  type: SourceType;
  name: string;
  url: string;
  intervalMs: number;
  mapping: Record<string, string>;
  row: SourceRow | null;
  table: SourceTable | null;
  paused: boolean;
  status: {
    state: 'pending' | 'ok' | 'failing' | 'paused';
    lastFetchAt: string | null;
    lastChangeAt: string | null;
    lastError: string | null;
    etag: string | null;
    cursor: number;
  };
  createdAt: string;
  updatedAt: string;
}

export function sourceView(s: SourceRecord): SourceView {
  const { id, channelId, type, name, url, intervalMs, mapping, row, table, paused, createdAt, updatedAt } = s;
  const { lastFetchAt, lastChangeAt, lastError, etag, cursor } = s;
  const state = paused ? 'paused' : s.state;
  return {
    ...{ id, channelId, type, name, url, intervalMs, mapping, row, table, paused },
    status: { state, lastFetchAt, lastChangeAt, lastError, etag, cursor },
    createdAt,
    updatedAt,
  };
}

export const write = { scope: 'channel', permission: 'channels:write', bucket: 'creates' } as const;
export const read = { scope: 'channel', permission: 'channels:read', bucket: 'reads' } as const;

export const createSource: ChannelOperation<SourceIn, SourceView> = {
  ...write,
  name: 'sources.create',
  input: SourceIn,
  async run(ctx, input) {
    const { services, channel } = ctx;
    const config = await newSourceConfig(ctx, input);
    assertRoom(
      (await services.store.sources.listSources(channel.id)).length,
      services.limits.sourcesPerChannel,
      'A channel has at most {limit} data sources',
      'ONAIR_LIMIT_SOURCES_PER_CHANNEL',
    );
    const at = new Date(services.now()).toISOString();
    const record: SourceRecord = {
      id: newId('src'),
      orgId: channel.orgId,
      channelId: channel.id,
      ...config,
      state: 'pending',
      cursor: 1,
      etag: null,
      lastModified: null,
      bodySha256: null,
      lastValues: {},
      lastFetchAt: null,
      lastChangeAt: null,
      lastError: null,
      failCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    await services.store.sources.insertSource(record);
    services.sources.stored(record);
    return sourceView(record);
  },
};

/** A channel has few sources (ONAIR_LIMIT_SOURCES_PER_CHANNEL): they are paged from one read. */
export const listSources: ChannelOperation<{ limit: number; cursor?: string | undefined }, Page<SourceView>> = {
  ...read,
  name: 'sources.list',
  input: z.strictObject(PageQuery),
  async run({ services, channel }, { limit, cursor }) {
    const sources = await services.store.sources.listSources(channel.id);
    const after = sources.filter((s) => cursor === undefined || s.id > cursor);
    return page(after.slice(0, limit + 1).map(sourceView), limit);
  },
};

export const getSource: ChannelOperation<{ sourceId: string }, SourceView> = {
  ...read,
  name: 'sources.get',
  input: SourceRef,
  run: async (ctx, { sourceId }) => sourceView(await findSource(ctx, sourceId)),
};

export const updateSource: ChannelOperation<SourcePatch & { sourceId: string }, SourceView> = {
  ...write,
  name: 'sources.update',
  input: SourcePatch.extend(SourceRef.shape),
  async run(ctx, { sourceId, ...patch }) {
    const current = await findSource(ctx, sourceId);
    const config = await patchedSourceConfig(ctx, current, patch);
    const updatedAt = new Date(ctx.services.now()).toISOString();
    await ctx.services.store.sources.updateSource(sourceId, config, updatedAt);
    const record = await findSource(ctx, sourceId);
    ctx.services.sources.stored(record);
    return sourceView(record);
  },
};

export const deleteSource: ChannelOperation<{ sourceId: string }, void> = {
  ...write,
  name: 'sources.delete',
  input: SourceRef,
  async run(ctx, { sourceId }) {
    const source = await findSource(ctx, sourceId);
    await ctx.services.store.sources.deleteSource(sourceId);
    ctx.services.sources.deleted(sourceId, source.channelId);
  },
};

/** The source, when it is one of the channel's; 404 otherwise. */
export async function findSource({ services, channel }: ChannelContext, sourceId: string): Promise<SourceRecord> {
  const source = await services.store.sources.getSource(sourceId);
  if (!source || source.channelId !== channel.id) {
    throw new AppError('not_found', `Data source ${sourceId} does not exist.`);
  }
  return source;
}

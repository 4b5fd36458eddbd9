/** What the data source routes answer, for the OpenAPI document (docs/data-sources.md). Inputs are the operations'. */
import { z } from '@hono/zod-openapi';
import { ChannelIdParam, pathParam } from '../schemas/common.js';

const RowOut = z
  .union([
    z.object({ by: z.literal('number'), number: z.number().int() }),
    z.object({ by: z.literal('match'), column: z.string(), value: z.string() }),
    z.object({ by: z.literal('cursor') }),
  ])
  .openapi('SourceRowRule');

export const SourceOut = z
  .object({
    id: z.string(),
    channelId: z.string(),
    type: z.enum(['json_url', 'csv_url']),
    name: z.string(),
    url: z.string(),
    intervalMs: z.number().int(),
    mapping: z.record(z.string(), z.string()),
    row: RowOut.nullable(),
    table: z.object({ input: z.string(), path: z.string().optional() }).nullable().openapi('SourceTableRule'),
    paused: z.boolean(),
    status: z
      .object({
        state: z.enum(['pending', 'ok', 'failing', 'paused']),
        lastFetchAt: z.string().nullable(),
        lastChangeAt: z.string().nullable().openapi({ description: 'When a fetch last applied a value.' }),
        lastError: z.string().nullable().openapi({ description: 'Why the last fetch failed; null after a success.' }),
        etag: z.string().nullable(),
        cursor: z.number().int().openapi({ description: 'The row the cursor is on (1: the first data row).' }),
      })
      .openapi('SourceStatus'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Source');

export const FetchOut = z
  .object({
    at: z.string(),
    status: z.number().int().nullable().openapi({ description: 'The HTTP status; null when none came.' }),
    bytes: z.number().int(),
    ms: z.number(),
    changed: z.boolean().openapi({ description: 'Whether the fetch applied a value.' }),
    error: z.string().nullable(),
  })
  .openapi('SourceFetch');

export const DryRunOut = z
  .object({
    values: z.record(z.string(), z.unknown()).openapi({ description: 'Input name → the value it would be set to.' }),
    unmapped: z.array(z.string()).openapi({ description: 'Fields (or CSV columns) that map to nothing.' }),
    fetch: z.object({ status: z.number().int().nullable(), bytes: z.number().int(), ms: z.number() }),
    error: z.string().nullable().openapi({ description: 'Why the source would fail now; null when it would not.' }),
  })
  .openapi('SourceDryRun');

export const SourceParams = ChannelIdParam.extend({ sourceId: pathParam('sourceId') });

/**
 * What a data source may be (docs/data-sources.md): the request shapes, and the checks a source passes at save and
 * before a dry run. Shape and range problems answer `400 invalid_request` naming the field (`intervalMs`, `row`,
 * `table.input`); a mapping or table naming an input no scene declares, `400 unknown_input`; a refused URL,
 * `422 endpoint_refused` (checked last: it may look the host up).
 */
import { z } from 'zod';
import type { Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { SourceConfig, SourceRecord } from '../store/source-store.js';
import { intervalRule, parseSourceUrl } from '../sources/index.js';
import { checkMapping, FieldPath, InputName, Mapping } from './incoming-hooks.js';
import type { ChannelContext } from './operation.js';

const MAX_ROW = 10_000;

const SourceRowIn = z
  .discriminatedUnion('by', [
    z.strictObject({ by: z.literal('number'), number: z.number().int().min(1).max(MAX_ROW) }),
    z.strictObject({ by: z.literal('match'), column: z.string().trim().min(1).max(200), value: z.string().max(1000) }),
    z.strictObject({ by: z.literal('cursor') }),
  ])
  .meta({
    id: 'SourceRow',
    description:
      'CSV sources: the row that maps: by number (1: the first after the header), the first whose `column` equals `value` (trimmed), or the one the cursor is on.',
  });

const SourceTableIn = z
  .strictObject({
    input: InputName,
    path: FieldPath.optional().meta({ description: 'JSON sources: the dotted path of the array.' }),
  })
  .meta({ id: 'SourceTable', description: 'Every row into a `list` input.' });

const SourceFields = {
  type: z.enum(['json_url', 'csv_url']),
  url: z.string().min(1).max(2048),
  name: z.string().trim().min(1).max(200),
  intervalMs: z.number().int().meta({
    description:
      'JSON and CSV 1,000–3,600,000 (default 10,000); a published Google Sheet 30,000–3,600,000 (default 60,000).',
  }),
  mapping: Mapping,
  row: SourceRowIn.nullable(),
  table: SourceTableIn.nullable(),
  paused: z.boolean(),
};

export const SourceIn = z
  .strictObject({
    ...SourceFields,
    name: SourceFields.name.optional(),
    intervalMs: SourceFields.intervalMs.optional(),
    mapping: SourceFields.mapping.optional(),
    row: SourceFields.row.optional(),
    table: SourceFields.table.optional(),
    paused: SourceFields.paused.optional(),
  })
  .meta({ id: 'SourceIn' });
export type SourceIn = z.infer<typeof SourceIn>;

export const SourcePatch = z
  .strictObject({
    type: SourceFields.type.optional(),
    url: SourceFields.url.optional(),
    name: SourceFields.name.optional(),
    intervalMs: SourceFields.intervalMs.optional(),
    mapping: SourceFields.mapping.optional(),
    row: SourceFields.row.optional(),
    table: SourceFields.table.optional(),
    paused: SourceFields.paused.optional(),
  })
  .meta({ id: 'SourcePatch' });
export type SourcePatch = z.infer<typeof SourcePatch>;

/** A new source's configuration, checked: the URL (looked up), the interval, the row and table, the mapping. */
export async function newSourceConfig(ctx: ChannelContext, s: SourceIn): Promise<SourceConfig> {
  const { sheet } = parseSourceUrl(s.type, s.url);
  const config: SourceConfig = {
    type: s.type,
    name: s.name ?? new URL(s.url).hostname,
    url: s.url,
    intervalMs: s.intervalMs ?? intervalRule(s.type, sheet).defaultMs,
    mapping: s.mapping ?? {},
    row: s.row ?? null,
    table: s.table ?? null,
    paused: s.paused ?? false,
  };
  checkShape(config, sheet);
  checkInputs(ctx.services.engine, ctx.channel.id, config);
  return { ...config, url: (await ctx.services.sources.checkUrl(config.type, config.url)).url };
}

/**
 * A source's configuration after a PATCH, checked. The inputs are checked only when the mapping or the table
 * changes, and the URL (a lookup) only when it or the type does: pausing a source never fails because a scene was
 * deleted or a DNS server is down.
 */
export async function patchedSourceConfig(ctx: ChannelContext, current: SourceRecord, p: SourcePatch) {
  const defined = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as SourcePatch;
  const config: SourceConfig = { ...configOf(current), ...defined };
  const { sheet } = parseSourceUrl(config.type, config.url);
  checkShape(config, sheet);
  if (p.mapping !== undefined || p.table !== undefined) checkInputs(ctx.services.engine, ctx.channel.id, config);
  if (p.url === undefined && p.type === undefined) return config;
  return { ...config, url: (await ctx.services.sources.checkUrl(config.type, config.url)).url };
}

export function configOf(s: SourceRecord): SourceConfig {
  const { type, name, url, intervalMs, mapping, row, table, paused } = s;
  return { type, name, url, intervalMs, mapping, row, table, paused };
}

function checkShape(c: SourceConfig, sheet: boolean): void {
  const rule = intervalRule(c.type, sheet);
  if (c.intervalMs < rule.minMs || c.intervalMs > rule.maxMs) {
    const what = sheet ? 'a published Google Sheet' : 'this source';
    invalid('intervalMs', `must be from ${rule.minMs} to ${rule.maxMs} ms for ${what}`);
  }
  if (c.type === 'csv_url' && c.row === null && c.table === null) {
    invalid('row', 'a CSV source needs a row, a table, or both');
  }
  if (c.type === 'json_url' && c.row !== null) invalid('row', 'only CSV sources pick a row');
  if (c.type === 'csv_url' && c.table?.path !== undefined) invalid('table.path', 'only JSON sources name a path');
  const twice = c.table && Object.keys(c.mapping).find((field) => c.mapping[field] === c.table!.input);
  if (twice) invalid(`mapping.${twice}`, `input "${c.table!.input}" is fed by the table`);
}

function checkInputs(engine: Engine, channelId: string, c: SourceConfig): void {
  checkMapping(engine, channelId, c.mapping);
  if (!c.table) return;
  const def = engine.registry(channelId).get(c.table.input);
  if (!def) {
    throw new AppError(
      'unknown_input',
      `The table names input "${c.table.input}", which no scene of this channel declares.`,
      {
        errors: [{ path: 'table.input', message: `no scene of this channel declares input "${c.table.input}"` }],
        extra: { input: c.table.input, closest: null },
      },
    );
  }
  if (def.type !== 'list') invalid('table.input', `input "${def.name}" is a ${def.type}, not a list`);
}

function invalid(path: string, message: string): never {
  throw new AppError('invalid_request', `${path}: ${message}.`, { errors: [{ path, message }] });
}

/** The as-run log (docs/as-run.md): a declaration over operations/as-run.ts, answered as JSON or as CSV. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AS_RUN_PAGE, AsRunQuery, listAsRun, type AsRunLine, type Page } from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { bindOperation } from '../operation-route.js';
import { openApiParts } from '../route-spec.js';
import { ActorOut } from '../rundowns/schemas.js';
import { ChannelIdParam, listOf } from '../schemas/common.js';
import { AS_RUN_CSV_COLUMNS, asRunCsv } from './as-run-csv.js';

const Values = z.record(z.string(), z.unknown());

const AsRunOut = z
  .object({
    id: z.string().openapi({ description: '`asr_…`; ids sort as the intervals began.' }),
    layer: z.number().int(),
    sceneId: z.string(),
    sceneName: z.string().openapi({ description: 'As it was when the interval began.' }),
    itemId: z.string().nullable(),
    label: z.string().openapi({ description: "The rundown item's label, or the scene's name." }),
    values: Values.openapi({ description: 'Every input the scene drew but clocks, as it went on air.' }),
    updatedValues: Values.nullable().openapi({
      description: "The instance's own values after the last update on air; null when it had none.",
    }),
    startAt: z.string(),
    startFrame: z.number().int(),
    endAt: z.string().nullable().openapi({ description: 'null while on air.' }),
    endFrame: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    takenBy: ActorOut,
    // null while on air, or when the server stopped (docs/as-run.md).
    clearedBy: z.union([ActorOut, z.null()]),
    confirmedAt: z.string().nullable().openapi({ description: 'When an output first said it had painted it.' }),
    confirmedBy: z.array(z.string()).openapi({ description: 'The outputs that did, first ones first.' }),
    endInferred: z.boolean().openapi({ description: 'The server died meanwhile: the end is when it last saw it.' }),
  })
  .openapi('AsRunInterval');

export function asRunRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const list = listOf(AsRunOut, 'AsRunList');
  const parts = openApiParts({ params: ChannelIdParam, query: AsRunQuery, ok: [200, '', list] });
  const csv = z.string().openapi({ description: `CSV with a header row: ${AS_RUN_CSV_COLUMNS.join(', ')}.` });
  parts.responses[200] = {
    description: 'Intervals in the order they began, as JSON or (`?format=csv`, `Accept: text/csv`) CSV',
    content: { 'application/json': { schema: list }, 'text/csv': { schema: csv } },
  };
  bindOperation(app, deps.runner, listAsRun, {
    method: 'get',
    path: '/channels/{id}/as-run',
    tags: ['As-run'],
    summary: `A channel's as-run log: what was on program, when, for how long, who took and cleared it (${AS_RUN_PAGE.default} per page, up to ${AS_RUN_PAGE.max})`,
    ...parts,
    answer: (out, c) => (wantsCsv(c) ? csvAnswer(out, c) : out),
  });
  return app;
}

/** `?format=` decides; without it, an `Accept` that names text/csv and not JSON. */
function wantsCsv(c: Context<ApiEnv>): boolean {
  const format = c.req.query('format');
  if (format !== undefined) return format === 'csv';
  const accept = c.req.header('accept') ?? '';
  return /\btext\/csv\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept);
}

/** The page as CSV; the next page, when there is one, in a `Link` header. */
function csvAnswer(out: Page<AsRunLine>, c: Context<ApiEnv>): Response {
  if (out.nextCursor !== null) {
    const next = new URL(c.req.url);
    next.searchParams.set('cursor', out.nextCursor);
    c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  c.header('Content-Disposition', `attachment; filename="as-run-${c.req.param('id') ?? 'channel'}.csv"`);
  return c.body(asRunCsv(out.data), 200, { 'Content-Type': 'text/csv; charset=utf-8; header=present' });
}

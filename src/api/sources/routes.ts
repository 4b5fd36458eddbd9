/**
 * Data sources (docs/data-sources.md): a channel's polled feeds under /channels/{id}/sources, declarations over
 * operations/sources.ts and operations/source-actions.ts.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  createSource,
  deleteSource,
  getSource,
  listSourceFetches,
  listSources,
  moveSourceRow,
  refreshSource,
  SourceIn,
  SourcePatch,
  SourceRowMove,
  testSource,
  updateSource,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam, ListQuery, listOf } from '../schemas/common.js';
import { DryRunOut, FetchOut, SourceOut, SourceParams } from './schemas.js';

export function sourceRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Data sources']);
  const base = '/channels/{id}/sources';
  const one = `${base}/{sourceId}`;
  route(createSource, `post ${base}`, {
    summary: 'Add a data source to a channel: a JSON feed or a CSV (a published Google Sheet) polled for values',
    description:
      'Fetched at once, then every `intervalMs`. Refused: a URL the server may not fetch (`422 endpoint_refused`), ' +
      'an interval out of range, a CSV source without `row` or `table` (`400 invalid_request` naming the field), ' +
      'a mapping or table naming an input no scene declares (`400 unknown_input`), more than ' +
      '`ONAIR_LIMIT_SOURCES_PER_CHANNEL` sources (`422 limit_reached`).',
    params: ChannelIdParam,
    body: SourceIn,
    ok: [201, 'Created', SourceOut],
  });
  route(listSources, `get ${base}`, {
    summary: "A channel's data sources, with their status",
    params: ChannelIdParam,
    query: ListQuery,
    ok: [200, 'In creation order', listOf(SourceOut, 'SourceList')],
  });
  route(testSource, `post ${base}/test`, {
    summary: 'Dry run: fetch a source once and map it, changing nothing',
    description:
      'Takes what a new source takes and checks it the same way; answers the values it would set, the fields that ' +
      "map to nothing, the fetch's status, size and time, and why it would fail (`error`), if it would.",
    params: ChannelIdParam,
    body: SourceIn,
    ok: [200, 'What the source would apply now', DryRunOut],
  });
  route(getSource, `get ${one}`, {
    summary: 'Read a data source and its status',
    params: SourceParams,
    ok: [200, 'The source', SourceOut],
  });
  route(updateSource, `patch ${one}`, {
    summary: 'Edit a data source; `paused: true` pauses it, `paused: false` resumes it',
    description:
      'An edited or resumed source is fetched at once, its body read whole. Refused: a URL the server may not fetch ' +
      '(`422 endpoint_refused`), and what creating one refuses.',
    params: SourceParams,
    body: SourcePatch,
    more: { 422: 'endpoint_refused (a URL the server may not fetch)' },
    ok: [200, 'The source', SourceOut],
  });
  route(deleteSource, `delete ${one}`, {
    summary: 'Delete a data source (polling stops; the values it set stay on air)',
    params: SourceParams,
    ok: [204, 'Deleted'],
  });
  route(refreshSource, `post ${one}/refresh`, {
    summary: 'Fetch a data source now (joining a fetch that is running), applying what changed',
    params: SourceParams,
    more: { 409: 'conflict (the source is paused)' },
    ok: [200, 'The source after the fetch', SourceOut],
  });
  route(moveSourceRow, `post ${one}/row`, {
    summary: "Move a CSV source's cursor (next, previous, first, or a row number) and apply the row it lands on",
    description: 'The sheet is fetched whole, the cursor moved, and the values of that row that changed applied.',
    params: SourceParams,
    body: SourceRowMove,
    more: { 409: 'conflict (the source is paused, or does not pick its row by cursor)' },
    ok: [200, 'The source after the move', SourceOut],
  });
  route(listSourceFetches, `get ${one}/fetches`, {
    summary: "The source's last 50 fetches, newest first",
    params: SourceParams,
    ok: [200, 'Newest first', listOf(FetchOut, 'SourceFetchList')],
  });
  return app;
}

/**
 * Rundowns and their items (docs/rundowns.md): declarations over operations/rundowns.ts. The playout routes of a
 * rundown (cue, play next, stop) answer with the channel's state like the bus routes.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import {
  addItem,
  createRundown,
  cueRundownItem,
  deleteItem,
  deleteRundown,
  duplicateItem,
  editItem,
  FocusIn,
  focusRundown,
  getRundown,
  ItemIn,
  ItemRefIn,
  ItemUpdate,
  listRundowns,
  playNext,
  renameRundown,
  RundownIn,
  RundownUpdate,
  stopRundownItem,
} from '../../operations/index.js';
import type { ApiDeps, ApiEnv } from '../env.js';
import { StateOut } from '../inputs/schemas.js';
import { UNKNOWN_ASSET } from '../route-docs.js';
import { routeBinder } from '../route-spec.js';
import { ChannelIdParam, pathParam } from '../schemas/common.js';
import { ItemOut, RundownList, RundownOut } from './schemas.js';

const RundownParams = ChannelIdParam.extend({ rundownId: pathParam('rundownId') });
const ItemParams = RundownParams.extend({ itemId: pathParam('itemId') });
const conflict = { 409: 'version_conflict: the record changed since the version you sent (the body has `current`)' };

export function rundownRoutes(deps: ApiDeps): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  const route = routeBinder(app, deps.runner, ['Rundowns']);
  const base = '/channels/{id}/rundowns';
  const state = { ok: [200, 'The channel state after the change', StateOut] as [200, string, typeof StateOut] };
  route(createRundown, `post ${base}`, {
    summary: 'Create a rundown',
    params: ChannelIdParam,
    body: RundownIn,
    ok: [201, 'Created', RundownOut],
  });
  route(listRundowns, `get ${base}`, {
    summary: "List the channel's rundowns",
    params: ChannelIdParam,
    ok: [200, 'Rundowns in creation order', RundownList],
  });
  route(getRundown, `get ${base}/{rundownId}`, {
    summary: 'Read a rundown',
    params: RundownParams,
    ok: [200, 'The rundown', RundownOut],
  });
  route(renameRundown, `patch ${base}/{rundownId}`, {
    summary: 'Rename a rundown',
    params: RundownParams,
    body: RundownUpdate,
    ok: [200, 'The rundown', RundownOut],
    more: conflict,
  });
  route(deleteRundown, `delete ${base}/{rundownId}`, {
    summary: 'Delete a rundown (what is on air stays on air)',
    params: RundownParams,
    ok: [204, 'Deleted'],
  });
  route(addItem, `post ${base}/{rundownId}/items`, {
    summary: 'Add an item: a scene with its own values',
    params: RundownParams,
    body: ItemIn,
    ok: [201, 'Created', ItemOut],
    more: { 422: UNKNOWN_ASSET },
  });
  route(editItem, `patch ${base}/{rundownId}/items/{itemId}`, {
    summary: 'Edit or move an item (never touches what is on air)',
    params: ItemParams,
    body: ItemUpdate,
    ok: [200, 'The item', ItemOut],
    more: { ...conflict, 422: UNKNOWN_ASSET },
  });
  route(duplicateItem, `post ${base}/{rundownId}/items/{itemId}/duplicate`, {
    summary: 'Duplicate an item (the copy follows it)',
    params: ItemParams,
    ok: [201, 'The copy', ItemOut],
  });
  route(deleteItem, `delete ${base}/{rundownId}/items/{itemId}`, {
    summary: 'Delete an item',
    params: ItemParams,
    ok: [204, 'Deleted'],
  });
  route(focusRundown, `post ${base}/{rundownId}/focus`, {
    summary: 'Move the shared focus: to an item, or next, previous, first, last',
    params: RundownParams,
    body: FocusIn,
    ok: [200, 'The rundown', RundownOut],
  });
  route(cueRundownItem, `post ${base}/{rundownId}/cue`, {
    summary: 'Cue an item (default: the focused one) into preview, with its values',
    params: RundownParams,
    body: ItemRefIn,
    optionalBody: true,
    ...state,
    answer: (out) => out.state,
  });
  route(playNext, `post ${base}/{rundownId}/play-next`, {
    summary: 'Cue the next item and take it, in one frame; the focus moves on',
    params: RundownParams,
    ...state,
    more: { 409: 'conflict: no item left to play' },
    answer: (out) => out.state,
  });
  route(stopRundownItem, `post ${base}/{rundownId}/stop`, {
    summary: "Take an item (default: this rundown's items on air) off air",
    params: RundownParams,
    body: ItemRefIn,
    optionalBody: true,
    ...state,
    answer: (out) => out.state,
  });
  return app;
}

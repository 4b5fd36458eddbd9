/**
 * The route table the access tests walk: every operation of GET /v1/openapi.json with the permission and rate-limit
 * bucket it declares (`x-onair-permission`, `x-onair-rate-limit`), plus what docs/api.md, "Authentication" and "Rate
 * limits" say they should be, real ids for path parameters and a plausible body for each operation.
 */
import { expectStatus, type Api } from './api.js';

export const ACCOUNT_ACCESS = ['public', 'authenticated', 'session', 'creator', 'owner', 'admin'] as const;

export interface Operation {
  method: string;
  /** As in the document: `/channels/{id}`. */
  path: string;
  permission: unknown;
  bucket: unknown;
  /** `GET /channels/{id}`: for messages. */
  name: string;
}

interface OpenApiDoc {
  servers: { url: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
}

export async function operations(baseUrl: string): Promise<Operation[]> {
  const res = await fetch(`${baseUrl}/v1/openapi.json`);
  const doc = (await res.json()) as OpenApiDoc;
  expectStatus({ status: res.status, headers: res.headers, body: doc }, 200);
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const m = method.toUpperCase();
      out.push({
        method: m,
        path,
        permission: op['x-onair-permission'],
        bucket: op['x-onair-rate-limit'],
        name: `${m} ${path}`,
      });
    }
  }
  return out;
}

const UPDATE_PATHS =
  /\/(inputs|preview|program|take|clear|update|continue|undo|redo)$|\/(triggers|clocks)\/\{[^}]+\}$|^\/hooks\/|\/sources\/\{sourceId\}\/row$/;
/** A data source's refresh and cursor moves are an operator's: they change values on air. */
const SOURCE_ACTIONS = /\/sources\/\{sourceId\}\/(refresh|row)$/;
/** The prepared show: every write to rundowns and the schedule is an operator's playout action. */
const SHOW_PATHS = /^\/channels\/\{id\}\/(rundowns|schedule)(\/|$)/;

/** The permission docs/api.md, "Authentication" gives the operation (account routes: who may call them). */
export function expectedPermission(method: string, path: string): string {
  if (path === '/auth/password') return 'session';
  if (path.startsWith('/auth/') || path.startsWith('/hooks/')) return 'public';
  if (path === '/me') return 'authenticated';
  if (method === 'POST' && path === '/workspaces') return 'creator';
  if (path.startsWith('/workspaces')) return 'session';
  if (path.startsWith('/server/')) return 'admin';
  if (path.startsWith('/members') || path.startsWith('/invitations')) return 'owner';
  if (path.startsWith('/keys')) return 'keys:manage';
  if (path.startsWith('/webhooks')) return 'webhooks:manage';
  if (method === 'GET') return 'channels:read';
  if (/\/(inputs|clocks\/\{[^}]+\})$/.test(path) || SOURCE_ACTIONS.test(path)) return 'inputs:write';
  if (/\/(preview|program|take|clear|update|continue|undo|redo|triggers\/\{[^}]+\})$/.test(path))
    return 'playout:write';
  if (SHOW_PATHS.test(path)) return 'playout:write';
  return 'channels:write';
}

/** The bucket docs/api.md, "Rate limits" counts the operation against (`none` for sign-in routes). */
export function expectedBucket(method: string, path: string): string {
  if (UPDATE_PATHS.test(path)) return 'updates';
  if (SHOW_PATHS.test(path) && method !== 'GET') return 'updates';
  if (path.startsWith('/auth/')) return 'none';
  return method === 'GET' ? 'reads' : 'creates';
}

export interface Ids {
  id: string;
  sceneId: string;
  keyId?: string;
  userId?: string;
  invitationId?: string;
  webhookId?: string;
  hookId?: string;
  rundownId?: string;
  itemId?: string;
  scheduleId?: string;
  assetId?: string;
  graphicId?: string;
  sourceId?: string;
  /** An incoming webhook's URL token. */
  token?: string;
}

/** `/v1/channels/ch_…/scenes/sc_…`; throws for a parameter the tests have no fixture for yet. */
export function fillPath(op: Operation, ids: Ids): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    // {name} is a trigger of the scoreboard template on triggers routes, its game clock on clocks routes.
    if (name === 'name') return op.path.includes('/clocks/') ? 'gameClock' : 'flashScoreA';
    // A scene keeps the version it was created as.
    if (name === 'version') return '1';
    // A bundled template: every workspace has them.
    if (name === 'templateId') return 'lower-third';
    const value = (ids as unknown as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`${op.name}: no fixture for {${name}}; add one to access-openapi.ts`);
    return value;
  });
  return `/v1${filled}`;
}

/**
 * Where the access tests' webhooks point: nothing listens there, so deliveries and pings fail at once. The
 * server under test allows it with ONAIR_WEBHOOK_ALLOW_PRIVATE (the guard is tested elsewhere).
 */
export const WEBHOOK_URL = 'https://127.0.0.1:1/hooks';
export const WEBHOOK_ENV = { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' };

/** An incoming webhook on `channelId`: its id and its URL token, for routes that name them. */
export async function incomingHookOf(call: Api, channelId: string): Promise<{ hookId: string; token: string }> {
  const res = await call<{ id: string; url: string }>('POST', `/v1/channels/${channelId}/incoming-hooks`, {});
  if (res.status !== 201) throw new Error(`incoming hook: ${res.status} ${JSON.stringify(res.body)}`);
  return { hookId: res.body.id, token: res.body.url.split('/').pop()! };
}

/**
 * A CSV data source stepping by cursor on `channelId`, for routes that name one: its URL answers nothing (the port is
 * closed), so its fetches fail at once. The server must allow private targets (WEBHOOK_ENV).
 */
export async function sourceOf(call: Api, channelId: string): Promise<{ sourceId: string }> {
  const res = await call<{ id: string }>('POST', `/v1/channels/${channelId}/sources`, SOURCE_BODY);
  if (res.status !== 201) throw new Error(`data source: ${res.status} ${JSON.stringify(res.body)}`);
  return { sourceId: res.body.id };
}

const SOURCE_BODY = {
  type: 'csv_url',
  url: 'http://127.0.0.1:1/results.csv',
  row: { by: 'cursor' },
  mapping: { Home: 'scoreA' },
};

/** A rundown with one item, and a scheduled take an hour ahead, on `channelId`: for routes that name them. */
export async function showOf(
  call: Api,
  channelId: string,
  sceneId: string,
): Promise<{ rundownId: string; itemId: string; scheduleId: string }> {
  const made = async (path: string, body: object) => {
    const res = await call<{ id: string }>('POST', `/v1/channels/${channelId}/${path}`, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  };
  const rundownId = await made('rundowns', { name: 'Show' });
  const itemId = await made(`rundowns/${rundownId}/items`, { sceneId });
  const at = new Date(Date.now() + 3_600_000).toISOString();
  const scheduleId = await made('schedule', { at, op: { kind: 'take' } });
  return { rundownId, itemId, scheduleId };
}

/** A body that the operation accepts, or undefined when it takes none. */
export function bodyFor(op: Operation, ids: Ids, definition?: unknown): unknown {
  switch (op.name) {
    case 'POST /channels':
      return { name: 'Made in a test' };
    case 'PATCH /channels/{id}':
      return { name: 'Renamed' };
    case 'POST /channels/{id}/scenes':
      return { name: 'Lower third', template: 'lower-third' };
    case 'PUT /channels/{id}/scenes/{sceneId}':
      return { name: 'Score', definition };
    case 'PATCH /channels/{id}/inputs':
      return { scoreA: 3 };
    case 'POST /channels/{id}/clocks/{name}':
      return { action: 'start' };
    case 'POST /channels/{id}/preview':
    case 'POST /channels/{id}/program':
      return { sceneId: ids.sceneId };
    case 'POST /keys':
      return { name: 'minted', permissions: ['keys:manage'] };
    case 'POST /webhooks':
      return { url: WEBHOOK_URL };
    case 'POST /channels/{id}/incoming-hooks':
      return { name: 'scorekeeper', mapping: { home_score: 'scoreA' } };
    case 'PATCH /channels/{id}/incoming-hooks/{hookId}':
      return { name: 'renamed' };
    case 'POST /hooks/{token}':
      return { home_score: 1 };
    case 'POST /channels/{id}/sources':
    case 'POST /channels/{id}/sources/test':
      return SOURCE_BODY;
    case 'PATCH /channels/{id}/sources/{sourceId}':
      return { name: 'renamed' };
    case 'POST /channels/{id}/sources/{sourceId}/row':
      return { move: 'next' };
    case 'POST /channels/{id}/rundowns':
      return { name: 'Show' };
    case 'PATCH /channels/{id}/rundowns/{rundownId}':
      return { name: 'Renamed', version: 1 };
    case 'POST /channels/{id}/rundowns/{rundownId}/items':
      return { sceneId: ids.sceneId || 'sc_00000000000000000000000000000000' };
    case 'PATCH /channels/{id}/rundowns/{rundownId}/items/{itemId}':
      return { label: 'Renamed', version: 1 };
    case 'POST /channels/{id}/rundowns/{rundownId}/focus':
      return { move: 'first' };
    case 'POST /channels/{id}/schedule':
      return { at: new Date(Date.now() + 3_600_000).toISOString(), op: { kind: 'take' } };
    case 'POST /channels/{id}/update':
      return { values: {} };
    case 'POST /workspaces':
      return { name: 'Another' };
    case 'POST /members':
      return { email: 'someone@example.com', role: 'viewer' };
    case 'PATCH /members/{userId}':
      return { role: 'viewer' };
    case 'PATCH /server/settings':
      return { everyoneCreatesWorkspaces: false };
    case 'PATCH /server/accounts/{userId}':
      return { createsWorkspaces: true };
    case 'POST /auth/password':
      return { currentPassword: 'not the password', newPassword: 'a new password 123' };
    default:
      return op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
  }
}

/**
 * Operations with a side effect that others depend on go last: cue, then take, then clear (a scene on a bus
 * cannot be deleted), then deletes, deepest first.
 */
export function sideEffectsLast(ops: Operation[]): Operation[] {
  const ORDER = ['/preview', '/take', '/clear'];
  const rank = (op: Operation) => {
    if (op.method === 'DELETE') return 10 - op.path.split('/').length;
    const step = ORDER.findIndex((end) => op.name.endsWith(end));
    return step === -1 ? -10 : step - ORDER.length;
  };
  return [...ops].sort((a, b) => rank(a) - rank(b));
}

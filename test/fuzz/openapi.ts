/**
 * The routes the fuzz walks, read from the server's own GET /v1/openapi.json: every path × method with the statuses
 * it documents, its request body schema and its query and path parameters; and the real id a fuzz case puts in
 * each path parameter.
 */
import type { QueryParam, Schema } from './arbitraries.js';
import { COMMON_STATUSES } from './kit.js';
import type { World, Workspace } from './world.js';

export interface Operation {
  method: string;
  /** As in the document, without the /v1 prefix: `/channels/{id}`. */
  path: string;
  /** `POST /channels/{id}/scenes`. */
  name: string;
  /** The statuses of the operation's `responses`. */
  statuses: Set<number>;
  body: Schema | undefined;
  query: QueryParam[];
  params: string[];
}

export interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        responses?: Record<string, unknown>;
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        parameters?: { in: string; name: string; schema?: Schema }[];
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

export async function loadDocument(baseUrl: string): Promise<OpenApiDoc> {
  const res = await fetch(`${baseUrl}/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): Operation => {
      const params = op.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        statuses: new Set(Object.keys(op.responses ?? {}).map(Number)),
        body: op.requestBody?.content?.['application/json']?.schema,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        params: params.filter((p) => p.in === 'path').map((p) => p.name),
      };
    }),
  );
}

/** Creates with a count limit (docs/api.md, "Limits": 422 limit_reached), and webhooks' 422 endpoint_refused. */
const CREATES = new Set([
  'POST /channels',
  'POST /channels/{id}/scenes',
  'POST /keys',
  'POST /webhooks',
  'POST /channels/{id}/incoming-hooks',
  'POST /workspaces',
]);

/**
 * The statuses an answer to `op` may have: its responses and the common ones (docs/api.md, "The order of checks"),
 * never 500, plus what docs/api.md documents outside the OpenAPI responses: 409 for any POST that sent an
 * Idempotency-Key ("Idempotent requests"), 422 for the creates with a count limit ("Limits") and for webhook
 * endpoints (docs/webhooks.md).
 */
export function allowedStatuses(op: Operation, idempotencyKey: boolean): Set<number> {
  const allowed = new Set([...op.statuses, ...COMMON_STATUSES]);
  allowed.delete(500);
  if (op.method === 'POST' && idempotencyKey) allowed.add(409);
  if (CREATES.has(op.name)) allowed.add(422);
  return allowed;
}

/** The real id for a path parameter: the workspace's fixtures, or its victims for a DELETE. */
export function realId(op: Operation, param: string, ws: Workspace, world: World): string {
  const del = op.method === 'DELETE';
  switch (param) {
    case 'id':
      return del && op.path === '/channels/{id}' ? ws.victimChannelId : ws.channelId;
    case 'sceneId':
      return del ? ws.victimSceneId : ws.sceneId;
    case 'keyId':
      return del ? ws.victimKeyId : ws.keyId;
    case 'webhookId':
      return del ? ws.victimWebhookId : ws.webhookId;
    case 'hookId':
      return del ? ws.victimHookId : ws.hookId;
    case 'token':
      return ws.hookToken;
    case 'userId':
      return world.owner.userId;
    case 'invitationId':
      return world.invitationId;
    case 'name':
      return op.path.includes('/clocks/') ? 'gameClock' : 'flashScoreA';
    case 'version':
      // A scene keeps the version it was created as.
      return '1';
    case 'rundownId':
      return del && op.path.endsWith('{rundownId}') ? ws.victimRundownId : ws.rundownId;
    case 'itemId':
      return del ? ws.victimItemId : ws.itemId;
    case 'scheduleId':
      return del ? ws.victimScheduleId : ws.scheduleId;
    case 'assetId':
      return del ? ws.victimAssetId : ws.assetId;
    case 'sourceId':
      return del ? ws.victimSourceId : ws.sourceId;
    case 'templateId':
      // The built-in templates are the server's: the same in every workspace, and never deleted.
      return 'lower-third';
    case 'graphicId':
      return del ? ws.victimGraphicId : ws.graphicId;
    default:
      throw new Error(`${op.name}: no fixture for {${param}}`);
  }
}

/** `/v1/channels/ch_…/scenes/sc_…`, with `override[param]` where given. */
export function fillPath(
  op: Operation,
  ws: Workspace,
  world: World,
  override: Record<string, string | null> = {},
): string {
  return `/v1${op.path.replace(/\{([^}]+)\}/g, (_, name: string) => override[name] ?? realId(op, name, ws, world))}`;
}

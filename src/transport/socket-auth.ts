/**
 * Who may open /v1/ws?channel=… (several channels at once: ./socket-channels.ts): a renderer with the channel's output token (read-only), an API key in the
 * Authorization header or as the `bearer.<key>` subprotocol (browsers cannot set headers), or the
 * dashboard's session cookie, from a page of this server only (browsers send Origin on every WebSocket
 * upgrade; a cookie upgrade without one, or from another origin, is refused: cross-site WebSocket hijacking).
 * A session acts in the channel's own workspace, with the role it has there.
 */
import type { Authenticator } from '../auth/authenticate.js';
import { channelOpenedBy, outputTokenRefused } from '../auth/output-token.js';
import { channelNotFound, type Principal } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import { AppError } from '../errors.js';
import type { Runner } from '../operations/index.js';
import { assertSameOrigin } from '../http/same-origin.js';
import { SCENE_SCOPES, SUBPROTOCOL, type SceneScope } from '@onair/protocol';

export interface UpgradeRequest {
  channelId: string | null;
  /** The `channels` query parameter: several channel ids, comma-separated, or `*` (every channel it may see). */
  channels: string | null;
  /** The `scenes` query parameter: which scene definitions the connection wants. */
  scenes: string | null;
  token: string | null;
  authorization: string | undefined;
  protocols: string[];
  cookie: string | undefined;
  origin: string | undefined;
  host: string | undefined;
}

export interface SocketGrant {
  principal: Principal;
  /** The channel of a one-channel connection; for one following several (`channels=`), the first of them, if any. */
  channelId: string;
  /** Every channel the connection follows at its open (one, for `channel=`). */
  channelIds: string[];
  /** `one` for `channel=`; `list` for `channels=<ids>`; `all` for `channels=*` (channels created later join). */
  follows: Follows;
  scenes: SceneScope;
  /** The subprotocol to answer with ('' for none). */
  protocol: string;
}

export type Follows = 'one' | 'list' | 'all';

/** What the upgrade checks credentials with: the channel's token, the keys and sessions, the runner's guard. */
export interface UpgradeAuth {
  engine: Engine;
  auth: Authenticator;
  runner: Pick<Runner, 'resolveChannel'>;
  /** How many channels one connection may follow (ONAIR_WS_MAX_CHANNELS_PER_SOCKET); 0: no limit. */
  channelsPerSocket: number;
}

export async function authorizeUpgrade(req: UpgradeRequest, deps: UpgradeAuth): Promise<SocketGrant> {
  const channelId = req.channelId;
  if (!channelId)
    throw new AppError('invalid_request', 'Name the channel: /v1/ws?channel=<channel id>&token=<output token>.');
  const { engine, auth, runner } = deps;
  const scenes = sceneScope(req.scenes);
  const protocol = answeredProtocol(req);
  if (req.token !== null) {
    const record = channelOpenedBy(engine, channelId, req.token);
    if (!record) throw outputTokenRefused();
    // Output tokens are for renderers, which draw the buses: every scene of the channel is for keys and sessions.
    if (scenes === 'all')
      throw new AppError('forbidden', 'An output token gets the scenes on the buses only; scenes=all needs a key.');
    const principal: Principal = { kind: 'output', orgId: record.orgId, channelId };
    return { principal, channelId, channelIds: [channelId], follows: 'one', scenes, protocol };
  }
  const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
  const principal = await upgradePrincipal(req, orgId, auth).catch((err: unknown) => {
    // Not a member of the channel's workspace (or no such channel): the guard's answer, which names no workspace.
    throw err instanceof AppError && err.code === 'not_found' ? channelNotFound(channelId) : err;
  });
  runner.resolveChannel(principal, 'channels:read', channelId);
  return { principal, channelId, channelIds: [channelId], follows: 'one', scenes, protocol };
}

/** The subprotocol to answer with: onair.v1 when offered, else the `bearer.<key>` offered alone, else none. */
export function answeredProtocol(req: Pick<UpgradeRequest, 'protocols'>): string {
  const bearer = req.protocols.find((p) => p.startsWith('bearer.'));
  return req.protocols.includes(SUBPROTOCOL) ? SUBPROTOCOL : (bearer ?? '');
}

export function sceneScope(given: string | null): SceneScope {
  if (given === null) return 'buses';
  if ((SCENE_SCOPES as readonly string[]).includes(given)) return given as SceneScope;
  throw new AppError('invalid_request', `scenes must be one of: ${SCENE_SCOPES.join(', ')} (default buses).`);
}

/** The key or session an upgrade carries; a session acts in `orgId` (a channel's workspace), or its first one. */
export async function upgradePrincipal(req: UpgradeRequest, orgId: string | undefined, auth: Authenticator) {
  const bearer = req.protocols.find((p) => p.startsWith('bearer.'));
  if (bearer) return auth.fromApiKey(bearer.slice('bearer.'.length));
  if (req.authorization || !req.cookie) return auth.fromAuthorization(req.authorization);
  return sessionPrincipal(req, orgId, auth);
}

/** The session's principal in the channel's workspace; a member of another workspace gets not_found. */
export async function sessionPrincipal(
  req: Pick<UpgradeRequest, 'cookie' | 'origin' | 'host'>,
  orgId: string | undefined,
  auth: Authenticator,
): Promise<Principal> {
  if (!req.origin) throw crossSite();
  try {
    assertSameOrigin(req.origin, undefined, req.host);
  } catch {
    throw crossSite();
  }
  const principal = await auth.fromRequest({ authorization: undefined, cookie: req.cookie, workspace: orgId });
  return principal;
}

function crossSite(): AppError {
  return new AppError('forbidden', "A session may open the WebSocket only from this server's own pages.");
}

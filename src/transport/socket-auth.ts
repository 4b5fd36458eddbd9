/**
 * Who may open /v1/ws?channel=…: a renderer with the channel's output token (read-only), or an API key
 * in the Authorization header or as the `bearer.<key>` subprotocol (browsers cannot set headers).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Authenticator } from '../auth/authenticate.js';
import { authorize, type Principal } from '../auth/permissions.js';
import type { Engine } from '../engine/index.js';
import { AppError } from '../errors.js';

export interface UpgradeRequest {
  channelId: string | null;
  token: string | null;
  authorization: string | undefined;
  protocols: string[];
}

export interface SocketGrant {
  principal: Principal;
  channelId: string;
  /** The subprotocol to answer with ('' for none). */
  protocol: string;
}

export const SUBPROTOCOL = 'onair.v1';

export async function authorizeUpgrade(req: UpgradeRequest, engine: Engine, auth: Authenticator): Promise<SocketGrant> {
  const channelId = req.channelId;
  if (!channelId)
    throw new AppError('invalid_request', 'Name the channel: /v1/ws?channel=<channel id>&token=<output token>.');
  const bearer = req.protocols.find((p) => p.startsWith('bearer.'));
  const protocol = req.protocols.includes(SUBPROTOCOL) ? SUBPROTOCOL : (bearer ?? '');
  if (req.token !== null) {
    const record = engine.has(channelId) ? engine.channelRecord(channelId) : null;
    if (!record || !sameToken(record.outputToken, req.token)) {
      throw new AppError('unauthorized', 'The output token is not valid for this channel (it may have been rotated).');
    }
    return { principal: { kind: 'output', orgId: record.orgId, channelId }, channelId, protocol };
  }
  const principal = bearer
    ? await auth.fromApiKey(bearer.slice('bearer.'.length))
    : await auth.fromAuthorization(req.authorization);
  const orgId = engine.has(channelId) ? engine.channelRecord(channelId).orgId : '\u0000missing';
  authorize(principal, 'channels:read', { orgId, channelId });
  return { principal, channelId, protocol };
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

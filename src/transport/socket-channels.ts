/**
 * One connection following several channels: /v1/ws?channels=<id>,<id> or channels=* (docs/api.md, "Connecting").
 * Keys and dashboard sessions only. Each named channel is checked exactly as `channel=<id>` checks its one (the
 * runner's guard, `channels:read`); `*` is every channel the credential may see now, and later the channels created
 * while it is connected (render-socket.ts). A session acts in one workspace: the first named channel's, or for `*`
 * its first one.
 */
import { authorize, channelNotFound, type Principal } from '../auth/permissions.js';
import { AppError } from '../errors.js';
import type { Runner } from '../operations/index.js';
import type { SocketData } from './socket-data.js';
import {
  answeredProtocol,
  sceneScope,
  upgradePrincipal,
  type SocketGrant,
  type UpgradeAuth,
  type UpgradeRequest,
} from './socket-auth.js';

const SETTING = 'ONAIR_WS_MAX_CHANNELS_PER_SOCKET';
/** Channel ids are at most this long (ids.ts); a longer one names no channel. */
const MAX_ID_LENGTH = 100;

export async function authorizeChannels(req: UpgradeRequest, deps: UpgradeAuth): Promise<SocketGrant> {
  if (req.channelId !== null)
    throw new AppError('invalid_request', 'Name one channel (channel=<id>) or several (channels=…), not both.');
  if (req.token !== null)
    throw new AppError('forbidden', 'An output token follows its one channel: channels= needs a key or a session.');
  const scenes = sceneScope(req.scenes);
  const named = namedChannels(req.channels ?? '');
  const first = named === '*' ? undefined : named.find((id) => deps.engine.has(id));
  const principal = await upgradePrincipal(req, first && deps.engine.channelRecord(first).orgId, deps.auth).catch(
    (err: unknown) => {
      throw err instanceof AppError && err.code === 'not_found' && first ? channelNotFound(first) : err;
    },
  );
  // After the credentials: a client that has none is told so (401) before anything about the channels it named.
  if (named !== '*') assertWithin(named.length, deps.channelsPerSocket);
  let channelIds: string[];
  if (named === '*') {
    authorize(principal, 'channels:read');
    channelIds = deps.engine.channelIds().filter((id) => mayFollow(deps.runner, principal, id));
    assertWithin(channelIds.length, deps.channelsPerSocket);
  } else {
    for (const id of named) deps.runner.resolveChannel(principal, 'channels:read', id);
    channelIds = named;
  }
  const follows = named === '*' ? 'all' : 'list';
  const protocol = answeredProtocol(req);
  return { principal, channelId: channelIds[0] ?? '', channelIds, follows, scenes, protocol };
}

/** Whether the principal may follow the channel: the one check a one-channel upgrade makes. */
export function mayFollow(runner: Pick<Runner, 'resolveChannel'>, principal: Principal, channelId: string): boolean {
  try {
    runner.resolveChannel(principal, 'channels:read', channelId);
    return true;
  } catch {
    return false;
  }
}

/** `*`, or the ids named once each, in the order given. */
function namedChannels(given: string): string[] | '*' {
  if (given.trim() === '*') return '*';
  const ids = [...new Set(given.split(',').map((id) => id.trim()))];
  if (ids.length === 0 || ids.some((id) => id === '' || id.length > MAX_ID_LENGTH))
    throw new AppError('invalid_request', 'channels must be `*` or channel ids separated by commas.');
  return ids;
}

/** The refusal of a connection that would follow more channels than it may. */
export function tooManyChannels(limit: number): AppError {
  return new AppError(
    'limit_reached',
    `A WebSocket follows at most ${limit} channels (${SETTING}): name the channels to follow with channels=<id>,<id>.`,
    { extra: { limit, setting: SETTING } },
  );
}

function assertWithin(count: number, limit: number): void {
  if (limit > 0 && count > limit) throw tooManyChannels(limit);
}

/**
 * The channel a client message is for: the connection's own on a one-channel connection (a `channelId` given must be
 * it); on one following several, the `channelId` it names, which must be followed.
 */
export function channelOfMessage(data: Pick<SocketData, 'follows' | 'channelId' | 'channels'>, named?: string): string {
  if (data.follows === 'one') {
    if (named !== undefined && named !== data.channelId) throw notFollowed(named);
    return data.channelId;
  }
  if (named === undefined)
    throw new AppError('invalid_request', 'channelId: required on a connection following several channels');
  if (!data.channels.has(named)) throw notFollowed(named);
  return named;
}

function notFollowed(channelId: string): AppError {
  return new AppError('not_found', `This connection does not follow channel ${channelId}.`);
}

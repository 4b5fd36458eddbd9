/**
 * How much of each thing one workspace, channel or account may have (docs/api.md, "Limits"). The defaults fit a
 * large league; each is an ONAIR_LIMIT_* setting. Beyond a count limit a create answers 422 limit_reached, naming
 * the limit and its value, and nothing is created.
 */
import { DEFAULT_SHOW_LIMITS } from '../engine/index.js';
import { AppError } from '../errors.js';

export interface ResourceLimits {
  channelsPerWorkspace: number;
  scenesPerChannel: number;
  /** Keys not revoked. */
  keysPerWorkspace: number;
  webhooksPerWorkspace: number;
  incomingHooksPerChannel: number;
  /** Data sources a channel polls (docs/data-sources.md). */
  sourcesPerChannel: number;
  /** Workspaces an account owns (it may be a member of more, by invitation). */
  workspacesPerAccount: number;
  /** Creates, changes and deletes (the creates bucket) by one dashboard user, over all their workspaces. */
  createsPerAccountPerMinute: number;
  /** The same from one client address, whoever sends them. */
  createsPerAddressPerMinute: number;
  /**
   * Requests to incoming-hook URLs (`/v1/hooks/{token}`, known or not) from one client address, per second:
   * checked before the token is even looked up, so guessing tokens or flooding a URL costs little.
   */
  hookPostsPerAddressPerSecond: number;
  /** Days the event log keeps. */
  eventDays: number;
  /** A channel's prepared show (the engine holds them: engine/draft.ts ShowLimits). */
  rundownsPerChannel: number;
  itemsPerRundown: number;
  scheduledPerChannel: number;
  /** On-air actions kept for undo (at least 100). */
  historyDepth: number;
  /** The asset library (docs/assets.md): how many files a workspace holds, and their total size in bytes. */
  assetsPerWorkspace: number;
  assetBytesPerWorkspace: number;
  /** The largest file one upload takes, and the largest SVG (it is parsed and rewritten). */
  assetMaxBytes: number;
  svgMaxBytes: number;
  /** The largest OGraf graphic upload (a zip or a form of files); its files may take 4 times as much unzipped. */
  graphicUploadMaxBytes: number;
  /** Imported OGraf graphics a workspace holds (their files count in assetBytesPerWorkspace). */
  graphicsPerWorkspace: number;
}

export const DEFAULT_LIMITS: ResourceLimits = {
  channelsPerWorkspace: 500,
  scenesPerChannel: 100,
  keysPerWorkspace: 500,
  webhooksPerWorkspace: 50,
  incomingHooksPerChannel: 20,
  sourcesPerChannel: 20,
  workspacesPerAccount: 20,
  createsPerAccountPerMinute: 120,
  createsPerAddressPerMinute: 300,
  hookPostsPerAddressPerSecond: 100,
  eventDays: 7,
  assetsPerWorkspace: 500,
  assetBytesPerWorkspace: 512 * 1024 * 1024,
  assetMaxBytes: 10 * 1024 * 1024,
  svgMaxBytes: 1024 * 1024,
  graphicUploadMaxBytes: 50 * 1024 * 1024,
  graphicsPerWorkspace: 200,
  ...DEFAULT_SHOW_LIMITS,
};

/** Throws 422 limit_reached when `count` things already fill `limit` ("A workspace has at most 500 channels."). */
export function assertRoom(count: number, limit: number, sentence: string, setting: string): void {
  if (count < limit) return;
  throw new AppError('limit_reached', `${sentence.replace('{limit}', String(limit))} (${setting}).`, {
    extra: { limit, setting },
  });
}

/** What the action and feedback definitions need of the running instance. */
import type { Choices } from './choices.js';
import type { LiveChannel, LiveChannels } from './live-channels.js';
import type { Op } from './ops.js';
import { findChannel, text } from './resolve.js';

export interface ModuleApi {
  readonly live: LiveChannels;
  readonly connected: boolean;
  choices(): Choices;
  /** Runs an op on a channel: on the socket, settled by its ack, or over REST while the socket is down. */
  run(channelId: string, op: Op): Promise<void>;
}

/**
 * The channel an option names and the thing found in it. With no channel chosen, the first followed channel that
 * has the thing (ids are unique across channels; a typed name is looked for in each).
 */
export function locate<T>(
  api: ModuleApi,
  channelOption: unknown,
  find: (channel: LiveChannel) => T | undefined,
  what: string,
): { channel: LiveChannel; found: T } {
  const candidates = text(channelOption) === '' ? api.live.list() : [findChannel(api.live, channelOption)];
  if (candidates[0] === undefined) throw new Error(`No followed channel "${text(channelOption)}"`);
  for (const channel of candidates) {
    const found = channel && find(channel);
    if (channel && found !== undefined) return { channel, found };
  }
  throw new Error(`No ${what} found`);
}

/** The channel an option names; with none chosen, the only followed channel. */
export function channelOnly(api: ModuleApi, channelOption: unknown): LiveChannel {
  const channel = findChannel(api.live, channelOption);
  if (!channel) {
    throw new Error(
      text(channelOption) === ''
        ? 'Choose a channel: several are followed'
        : `No followed channel "${text(channelOption)}"`,
    );
  }
  return channel;
}

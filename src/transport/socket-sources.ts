/**
 * The render socket's side of the data sources (docs/data-sources.md): key and session connections follow a
 * channel's sources on their own topic, which output pages never join. A change is read from the store only when
 * someone follows the channel, and published only when it differs from what was last published (a fetch that
 * changed nothing shown sends nothing).
 */
import type { Logger } from 'pino';
import type { SourcesMessage } from '@onair/protocol';
import type { SourceFeed } from '../sources/source-feed.js';
import type { SocketData } from './socket-data.js';

export const sourcesTopic = (channelId: string) => `ch/${channelId}/sources`;

export interface SourcesLink {
  /**
   * At open (and for each channel a connection starts following): a key or session connection follows the channel's
   * sources and gets them now, when there are any (`send` drops what comes after the connection stopped following).
   */
  opened(
    data: SocketData,
    channelId: string,
    follow: (topic: string) => void,
    send: (msg: SourcesMessage) => void,
  ): void;
  stop(): void;
}

export function linkSources(
  feed: SourceFeed | undefined,
  publish: (channelId: string, topic: string, text: string) => void,
  subscribers: (topic: string) => number,
  logger: Logger,
): SourcesLink {
  /** What was last published per followed channel. */
  const last = new Map<string, string>();
  const failed = (channelId: string) => (err: unknown) =>
    logger.error({ err, channelId }, 'sources: the message could not be read');
  const stopChanges = feed?.onChanged((channelId) => {
    const topic = sourcesTopic(channelId);
    if (subscribers(topic) === 0) return void last.delete(channelId);
    feed.message(channelId).then((msg) => {
      const text = JSON.stringify(msg);
      if (subscribers(topic) === 0 || last.get(channelId) === text) return;
      last.set(channelId, text);
      publish(channelId, topic, text);
    }, failed(channelId));
  });
  return {
    opened(data, channelId, follow, send) {
      if (!feed || data.principal.kind === 'output') return;
      follow(sourcesTopic(channelId));
      feed.message(channelId).then((msg) => {
        if (msg.sources.length > 0) send(msg);
      }, failed(channelId));
    },
    stop: () => stopChanges?.(),
  };
}

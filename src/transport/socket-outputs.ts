/**
 * The render socket's side of the outputs (src/outputs, docs/outputs.md): output-token connections are outputs and
 * their `painted` reports go there; key and session connections follow the channel's outputs on their own topic,
 * which output pages never join, so reports are never fanned back out to renderers.
 */
import { AppError } from '../errors.js';
import type { Outputs } from '../outputs/outputs.js';
import type { SocketData } from './socket-data.js';

export const outputsTopic = (channelId: string) => `ch/${channelId}/outputs`;

export interface OutputsLink {
  /**
   * At open (and for each channel a connection starts following): an output-token connection becomes an output; any
   * other follows the channel's outputs (the current ones at once).
   */
  opened(data: SocketData, channelId: string, follow: (topic: string) => void, send: (msg: object) => void): void;
  /** A `painted` report; throws forbidden for a connection that is not an output page's. */
  painted(data: SocketData, input: unknown): void;
  closed(data: SocketData, code: number): void;
  /** A frame published for the channel (its number, when it could be read). */
  sent(channelId: string, frame: number | null): void;
  stop(): void;
}

/**
 * `publish` sends a channel's `outputs` message to its topic; it is asked only when someone follows it
 * (`subscribers`), so a channel nobody watches costs no message.
 */
export function linkOutputs(
  outputs: Outputs | undefined,
  publish: (channelId: string, topic: string, text: string) => void,
  subscribers: (topic: string) => number,
): OutputsLink {
  const stopChanges = outputs?.onChanged((channelId) => {
    const topic = outputsTopic(channelId);
    if (subscribers(topic) > 0) publish(channelId, topic, JSON.stringify(outputs.message(channelId)));
  });
  return {
    opened(data, channelId, follow, send) {
      if (!outputs) return;
      if (data.principal.kind === 'output') {
        data.output = outputs.open({ channelId, address: data.address });
        return;
      }
      follow(outputsTopic(channelId));
      const now = outputs.message(channelId);
      if (now.total > 0 || now.refused) send(now);
    },
    painted(data, input) {
      if (data.output) return outputs?.report(data.output, input);
      outputs?.notOutput();
      throw new AppError('forbidden', 'Only an output page (an output-token connection) reports what it painted.');
    },
    closed(data, code) {
      if (data.output) outputs?.close(data.output, code);
    },
    sent(channelId, frame) {
      if (frame !== null) outputs?.sent(channelId, frame);
    },
    stop: () => stopChanges?.(),
  };
}

/**
 * A channel's outputs (docs/outputs.md): the output pages connected to this server, what they painted and how
 * healthy they are, and the pages refused for their token. Read from memory: outputs are live state.
 */
import { z } from 'zod';
import type { OutputList } from '../outputs/outputs.js';
import type { ChannelOperation } from './operation.js';

/** What the outputs operation reads (src/outputs/outputs.ts, Outputs). */
export interface OutputsDesk {
  list(channelId: string): OutputList;
}

export const listOutputs: ChannelOperation<unknown, OutputList & { nextCursor: null }> = {
  name: 'outputs.list',
  scope: 'channel',
  permission: 'channels:read',
  bucket: 'reads',
  input: z.strictObject({}),
  async run({ channel, services }) {
    const { data, refused } = services.outputs.list(channel.id);
    return { data, nextCursor: null, refused };
  },
};

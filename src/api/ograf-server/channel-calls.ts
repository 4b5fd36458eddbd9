/**
 * The operations the OGraf Server API calls for a request (the REST API's own: one operation, one function), as the
 * request's caller. Only the shapes change; the runner checks keys, permissions, locks and rate limits as for /v1.
 */
import type { Context } from 'hono';
import type { InputValue } from '@onair/protocol';
import type { ChannelState } from '../../engine/index.js';
import { CLIENT_ADDRESS_HEADER } from '../../http/client-address.js';
import {
  callerOf,
  channelState,
  getChannel,
  listChannels,
  listOutputs,
  listScenes,
  patchInputs,
  type ChannelView,
  type Operation,
  type Runner,
} from '../../operations/index.js';
import type { SceneView } from '../../scenes/scene-view.js';
import type { OutputSummary } from './renderer-views.js';
import type { ApiEnv } from '../env.js';

export interface ChannelCalls {
  run<I, O>(op: Operation<I, O>, channelId: string | undefined, input: unknown): Promise<O>;
  /** Every item of a paged list. */
  pages<T>(list: (cursor?: string) => Promise<{ data: T[]; nextCursor: string | null }>): Promise<T[]>;
  channels(): Promise<ChannelView[]>;
  channel(id: string): Promise<ChannelView>;
  state(id: string): Promise<ChannelState>;
  scenes(id: string): Promise<SceneView[]>;
  /** The channel's output pages, with their health (GET …/outputs). */
  outputs(id: string): Promise<OutputSummary[]>;
  /** Sets the channel-scoped inputs among `data` (PATCH …/inputs); answers the item-scoped ones, for the instance. */
  splitData(id: string, scene: SceneView, data: unknown): Promise<Record<string, InputValue>>;
}

export function channelCalls(runner: Runner, c: Context<ApiEnv>): ChannelCalls {
  const caller = callerOf(c.get('principal'), c.req.header(CLIENT_ADDRESS_HEADER));
  const run = async <I, O>(op: Operation<I, O>, channelId: string | undefined, input: unknown) =>
    (await runner.run(op, caller, { channelId, input })).body;
  async function pages<T>(list: (cursor?: string) => Promise<{ data: T[]; nextCursor: string | null }>) {
    const all: T[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await list(cursor);
      all.push(...page.data);
      if (page.nextCursor === null) return all;
      cursor = page.nextCursor;
    }
  }
  return {
    run,
    pages,
    channels: () => pages((cursor) => run(listChannels, undefined, { limit: 100, ...(cursor ? { cursor } : {}) })),
    channel: (id) => run(getChannel, id, {}),
    state: (id) => run(channelState, id, {}),
    scenes: (id) => pages((cursor) => run(listScenes, id, { limit: 100, ...(cursor ? { cursor } : {}) })),
    outputs: async (id) => (await run(listOutputs, id, {})).data,
    async splitData(id, scene, data) {
      const item: Record<string, InputValue> = {};
      const channel: Record<string, unknown> = {};
      if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
        for (const [name, value] of Object.entries(data)) {
          const def = scene.inputs.find((i) => i.name === name);
          if (def?.scope === 'item') item[name] = value as InputValue;
          else channel[name] = value;
        }
      }
      if (Object.keys(channel).length > 0) await run(patchInputs, id, channel);
      return item;
    },
  };
}

/** Channel records and state, as the API answers them (docs/api.md, "Channels"). */
import { api, listAll } from './api.js';
import type { ApiSchemas } from './api-types.js';

export type Channel = ApiSchemas['Channel'];
/** `GET /v1/channels/{id}/state`. */
export type ChannelStateView = ApiSchemas['State'];
export type SceneRecord = ApiSchemas['Scene'];

export const FPS_CHOICES = [25, 29.97, 30, 50, 59.94, 60] as const;
/** What the API gives a channel created without `fps`. */
export const DEFAULT_FPS = 60;

export const listChannels = () => listAll<Channel>('/v1/channels');
export const getChannel = (id: string) => api<Channel>('GET', `/v1/channels/${encodeURIComponent(id)}`);
export const channelState = (id: string) =>
  api<ChannelStateView>('GET', `/v1/channels/${encodeURIComponent(id)}/state`);
export const listScenes = (id: string) => listAll<SceneRecord>(`/v1/channels/${encodeURIComponent(id)}/scenes`);

/** Every input the channel's scenes declare, each once (the first scene declaring it gives its label and type). */
export async function channelInputs(id: string): Promise<SceneRecord['inputs']> {
  const inputs = new Map<string, SceneRecord['inputs'][number]>();
  for (const scene of await listScenes(id))
    for (const i of scene.inputs) if (!inputs.has(i.name)) inputs.set(i.name, i);
  return [...inputs.values()];
}

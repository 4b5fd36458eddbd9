/** Channel records and state, as the API answers them (docs/api.md, "Channels"). */
import { api, listAll } from './api.js';

export interface Channel {
  id: string;
  name: string;
  fps: number;
  width: number;
  height: number;
  outputUrl: string;
  previewUrl: string;
  createdAt: string;
  updatedAt: string;
}

export interface ChannelStateView {
  channelId: string;
  frame: number;
  program: { sceneId: string; layer: number; since: string }[];
  preview: { sceneId: string; layer: number }[];
}

export interface SceneRecord {
  id: string;
  channelId: string;
  name: string;
  layer: number;
  inputs: { name: string; type: string; label: string; default: unknown }[];
  triggers: string[];
  definition: unknown;
  createdAt: string;
  updatedAt: string;
}

export const FPS_CHOICES = [25, 29.97, 30, 50, 59.94, 60] as const;

export const listChannels = () => listAll<Channel>('/v1/channels');
export const getChannel = (id: string) => api<Channel>('GET', `/v1/channels/${encodeURIComponent(id)}`);
export const channelState = (id: string) =>
  api<ChannelStateView>('GET', `/v1/channels/${encodeURIComponent(id)}/state`);
export const listScenes = (id: string) => listAll<SceneRecord>(`/v1/channels/${encodeURIComponent(id)}/scenes`);

/** What the scene editor loads: the channel, its current values (for the preview), the scene, the templates. */
import type { SceneDefinition } from '@onair/protocol';
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { getChannel, type Channel, type SceneRecord } from '../channels-api.js';
import type { LiveValues } from './sketch-snapshot.js';

export interface EditorData {
  channel: Channel;
  /** null when the state could not be read: the preview then shows the scene's defaults. */
  live: LiveValues | null;
  /** null for a new scene. */
  scene: (Omit<SceneRecord, 'definition'> & { definition: SceneDefinition }) | null;
}

/** `GET /v1/templates`: the definition as the protocol types it, which the preview draws. */
export type TemplateInfo = Omit<ApiSchemas['Template'], 'definition'> & { definition: SceneDefinition };

type StateValues = Pick<ApiSchemas['State'], 'serverTime' | 'inputs' | 'clocks'>;

const channelPath = (channelId: string) => `/v1/channels/${encodeURIComponent(channelId)}`;

export async function loadEditorData(channelId: string, sceneId: string | null): Promise<EditorData> {
  const [channel, live, scene] = await Promise.all([
    getChannel(channelId),
    liveValues(channelId),
    sceneId === null
      ? null
      : api<EditorData['scene']>('GET', `${channelPath(channelId)}/scenes/${encodeURIComponent(sceneId)}`),
  ]);
  return { channel, live, scene };
}

async function liveValues(channelId: string): Promise<LiveValues | null> {
  try {
    const state = await api<StateValues>('GET', `${channelPath(channelId)}/state`);
    return { inputs: state.inputs, clocks: state.clocks, offsetMs: Date.parse(state.serverTime) - Date.now() };
  } catch {
    return null;
  }
}

export async function listTemplates(): Promise<TemplateInfo[]> {
  return (await api<{ data: TemplateInfo[] }>('GET', '/v1/templates')).data;
}

export function scenePath(channelId: string, sceneId?: string): string {
  return `${channelPath(channelId)}/scenes${sceneId === undefined ? '' : `/${encodeURIComponent(sceneId)}`}`;
}

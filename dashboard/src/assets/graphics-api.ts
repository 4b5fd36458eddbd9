/** Imported OGraf graphics through the public API (docs/ograf.md): list, upload a zip, delete, make a scene. */
import { ApiError, api, listAll, workspaceId, type FieldError } from '../api.js';
import type { ApiSchemas } from '../api-types.js';

export type Graphic = ApiSchemas['Graphic'];
export type GraphicsUploaded = ApiSchemas['GraphicsUploaded'];

export function listGraphics(): Promise<Graphic[]> {
  return listAll<Graphic>('/v1/graphics');
}

export function deleteGraphic(id: string): Promise<unknown> {
  return api('DELETE', `/v1/graphics/${encodeURIComponent(id)}`);
}

/** A scene drawn by the graphic, added to the channel. */
export function sceneFromGraphic(channelId: string, graphic: Graphic, layer: number): Promise<unknown> {
  const path = `/v1/channels/${encodeURIComponent(channelId)}/scenes`;
  return api('POST', path, { name: graphic.name || graphic.graphicId, graphic: graphic.id, layer });
}

/** Uploads a zipped graphic package as a form; the problem's per-path errors come back with it. */
export async function uploadGraphic(file: File): Promise<GraphicsUploaded> {
  const form = new FormData();
  form.set('graphic', file, file.name);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (workspaceId.value) headers['X-Workspace'] = workspaceId.value;
  let res: Response;
  try {
    res = await fetch('/v1/graphics', { method: 'POST', headers, body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  type Answer = GraphicsUploaded & { code?: string; detail?: string; errors?: FieldError[] };
  const data = (await res.json().catch(() => null)) as Answer | null;
  if (!res.ok) {
    throw new ApiError(res.status, data?.code ?? `http_${res.status}`, data?.detail ?? res.statusText, data?.errors);
  }
  return data as GraphicsUploaded;
}

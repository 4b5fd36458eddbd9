/** The asset library through the public API (docs/assets.md): list, upload (as a form), delete. */
import { ApiError, api, listAll, workspaceId } from '../api.js';
import type { ApiSchemas } from '../api-types.js';

export type Asset = ApiSchemas['Asset'];

export function listAssets(): Promise<Asset[]> {
  return listAll<Asset>('/v1/assets');
}

export function deleteAsset(id: string): Promise<unknown> {
  return api('DELETE', `/v1/assets/${encodeURIComponent(id)}`);
}

/** Uploads one file as a form; the same bytes again answer the asset that holds them. */
export async function uploadAsset(file: File): Promise<Asset> {
  const form = new FormData();
  form.set('file', file, file.name);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (workspaceId.value) headers['X-Workspace'] = workspaceId.value;
  let res: Response;
  try {
    res = await fetch('/v1/assets', { method: 'POST', headers, body: form, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (Asset & { code?: string; detail?: string }) | null;
  if (!res.ok) throw new ApiError(res.status, data?.code ?? `http_${res.status}`, data?.detail ?? res.statusText);
  return data as Asset;
}

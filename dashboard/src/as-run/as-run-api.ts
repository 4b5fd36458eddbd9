/**
 * A channel's as-run log (docs/as-run.md) as the dashboard reads it: a page of intervals for a time range, and the
 * same query as a CSV file. The CSV is fetched rather than linked: a plain link would carry the session cookie but
 * not the workspace the dashboard acts in (`X-Workspace`).
 */
import type { Actor } from '@onair/protocol';
import { api, ApiError, workspaceId, type Page } from '../api.js';

export interface AsRunLine {
  id: string;
  layer: number;
  sceneId: string;
  sceneName: string;
  itemId: string | null;
  label: string;
  startAt: string;
  startFrame: number;
  endAt: string | null;
  endFrame: number | null;
  durationMs: number | null;
  takenBy: Actor;
  clearedBy: Actor | null;
  confirmedAt: string | null;
  confirmedBy: string[];
  endInferred: boolean;
}

export interface AsRunQuery {
  /** ISO 8601, or null for no bound. */
  from: string | null;
  to: string | null;
}

export const AS_RUN_PAGE = 100;

function path(channelId: string, q: AsRunQuery, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  if (q.from) params.set('from', q.from);
  if (q.to) params.set('to', q.to);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return `/v1/channels/${encodeURIComponent(channelId)}/as-run?${params.toString()}`;
}

export function listAsRun(channelId: string, q: AsRunQuery, cursor: string | null): Promise<Page<AsRunLine>> {
  const extra: Record<string, string> = { limit: String(AS_RUN_PAGE) };
  if (cursor) extra.cursor = cursor;
  return api<Page<AsRunLine>>('GET', path(channelId, q, extra));
}

/** The query as CSV, every page of it (following the `Link: rel="next"` header), header row once. */
export async function asRunCsv(channelId: string, q: AsRunQuery): Promise<string> {
  let next: string | null = path(channelId, q, { format: 'csv', limit: '1000' });
  let csv = '';
  for (let i = 0; next && i < 100; i++) {
    const headers: Record<string, string> = { Accept: 'text/csv' };
    if (workspaceId.value) headers['X-Workspace'] = workspaceId.value;
    const res: Response = await fetch(next, { headers, credentials: 'same-origin' });
    if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, 'The as-run log could not be exported.');
    const text = await res.text();
    csv += i === 0 ? text : text.slice(text.indexOf('\r\n') + 2);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
  }
  return csv;
}

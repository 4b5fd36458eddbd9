/**
 * The dashboard's only way to the server: the public /v1 API with the session cookie (docs/dashboard.md).
 * Every call names the workspace it acts in (`X-Workspace`); an error answer becomes an ApiError carrying
 * the problem's stable `code`, its `detail` and the per-field `errors` the forms show beside their fields.
 */
import type { FieldError } from '@onair/protocol';
import { signal } from '@preact/signals';

export type { FieldError };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

/** The workspace every call acts in; null until the user's workspaces are known. */
export const workspaceId = signal<string | null>(null);

/** Called when any call answers 401: the session is gone (expired, logged out elsewhere). */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (workspaceId.value) headers['X-Workspace'] = workspaceId.value;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  const data: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const problem = (data ?? {}) as Partial<{ code: string; detail: string; title: string; errors: FieldError[] }>;
    const error = new ApiError(
      res.status,
      problem.code ?? 'http_' + res.status,
      problem.detail ?? problem.title ?? res.statusText,
      problem.errors ?? [],
    );
    if (res.status === 401 && !path.startsWith('/v1/auth/')) onSignedOut();
    throw error;
  }
  return data as T;
}

/** A list endpoint's page. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Every item of a list endpoint, following cursors (bounded: lists here are small). */
export async function listAll<T>(path: string, pages = 20): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const page: Page<T> = await api<Page<T>>(
      'GET',
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...page.data);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** A message for people: the problem's detail, or what went wrong in general. */
export function describe(err: unknown): string {
  if (err instanceof ApiError) return err.detail || err.code;
  return err instanceof Error ? err.message : String(err);
}

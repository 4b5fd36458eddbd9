/**
 * Who is signed in, in which workspace, with which permissions (GET /v1/me, GET /v1/workspaces). The role's
 * permissions decide which controls are drawn: a viewer sees no button it cannot use (the API refuses the
 * write anyway).
 */
import { computed, signal } from '@preact/signals';
import { api, workspaceId, whenSignedOut } from './api.js';
import type { ApiSchemas } from './api-types.js';

export type Workspace = ApiSchemas['Workspace'];
/** `GET /v1/me` for a signed-in user: a session always has its user and role (a key has neither). */
export type Me = ApiSchemas['Me'] & Required<Pick<ApiSchemas['Me'], 'user' | 'role'>>;

/** undefined: not known yet; null: signed out. */
export const me = signal<Me | null | undefined>(undefined);
export const workspaces = signal<Workspace[]>([]);

const WORKSPACE_KEY = 'onair.workspace';

export function can(permission: string): boolean {
  const p = me.value?.permissions ?? [];
  return p.includes('*') || p.includes(permission);
}

export const isOwner = computed(() => me.value?.role === 'owner');
export const isServerAdmin = computed(() => me.value?.user.serverAdmin === true);

/** Loads the session; signed out when there is none. */
export async function loadSession(): Promise<void> {
  try {
    const list = await api<ApiSchemas['WorkspaceList']>('GET', '/v1/workspaces');
    workspaces.value = list.data;
    const saved = localStorage.getItem(WORKSPACE_KEY);
    const chosen = list.data.find((w) => w.id === saved) ?? list.data[0];
    workspaceId.value = chosen?.id ?? null;
    me.value = await api<Me>('GET', '/v1/me');
  } catch {
    me.value = null;
  }
}

export async function switchWorkspace(id: string): Promise<void> {
  localStorage.setItem(WORKSPACE_KEY, id);
  workspaceId.value = id;
  me.value = await api<Me>('GET', '/v1/me');
}

export async function login(email: string, password: string): Promise<void> {
  await api('POST', '/v1/auth/login', { email, password });
  await loadSession();
}

export async function logout(): Promise<void> {
  await api('POST', '/v1/auth/logout').catch(() => undefined);
  me.value = null;
  workspaces.value = [];
  workspaceId.value = null;
}

whenSignedOut(() => {
  me.value = null;
});

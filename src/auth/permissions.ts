/**
 * Permissions (docs/api.md, "Authentication") and the one check every route and WebSocket op passes through.
 */
import type { Role } from '../domain/roles.js';
import { AppError } from '../errors.js';

export const PERMISSIONS = [
  'channels:read',
  'channels:write',
  'inputs:write',
  'playout:write',
  'webhooks:manage',
  'keys:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type Grant = Permission | '*';

export { ROLES, type Role } from '../domain/roles.js';

/** What each dashboard role may do (docs/api.md, "Authentication"). */
export const ROLE_GRANTS: Record<Role, readonly Grant[]> = {
  owner: ['*'],
  operator: ['channels:read', 'inputs:write', 'playout:write'],
  viewer: ['channels:read'],
};

interface Granted {
  orgId: string;
  grants: ReadonlySet<Grant>;
  /** null: every channel of the workspace. */
  channelIds: ReadonlySet<string> | null;
}

/** Who is asking. Built once per request or connection by auth/authenticate.ts. */
export type Principal =
  | (Granted & { kind: 'key'; keyId: string; /** The key's name, for the events it causes. */ name: string })
  /** A dashboard user acting in one workspace through a cookie session. */
  | (Granted & { kind: 'user'; userId: string; email: string; sessionId: string; role: Role })
  /** A renderer holding a channel's output token: may read that one channel, nothing else. */
  | { kind: 'output'; orgId: string; channelId: string };

export interface Target {
  /** The workspace of the resource, when there is one. */
  orgId?: string;
  channelId?: string;
}

/**
 * Throws not_found when the resource is outside what the principal may see (another workspace, a channel
 * outside its lock), so ids do not leak; then forbidden when it lacks the permission.
 */
export function authorize(principal: Principal, permission: Permission, target: Target = {}): void {
  if (target.orgId !== undefined && target.orgId !== principal.orgId) throw notFound(target);
  if (principal.kind === 'output') {
    if (target.channelId !== undefined && target.channelId !== principal.channelId) throw notFound(target);
    if (permission !== 'channels:read' || target.channelId === undefined) throw forbidden(permission);
    return;
  }
  if (target.channelId !== undefined && principal.channelIds && !principal.channelIds.has(target.channelId)) {
    throw notFound(target);
  }
  if (!hasGrant(principal.grants, permission)) throw forbidden(permission);
}

export function hasGrant(grants: ReadonlySet<Grant>, permission: Permission): boolean {
  return grants.has('*') || grants.has(permission);
}

function notFound(target: Target): AppError {
  return target.channelId ? channelNotFound(target.channelId) : new AppError('not_found', 'Not found.');
}

/** The one answer for a channel the caller may not see: unknown, another workspace's, or outside a key's lock. */
export function channelNotFound(channelId: string): AppError {
  return new AppError('not_found', `Channel ${channelId} does not exist.`);
}

function forbidden(permission: Permission): AppError {
  return new AppError('forbidden', `This credential lacks the "${permission}" permission.`, { extra: { permission } });
}

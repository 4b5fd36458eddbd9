import { z } from '@hono/zod-openapi';
import { ROLES } from '../../auth/permissions.js';

const Email = z.email().max(320);
const Password = z.string().min(1).max(1024);

export const SetupIn = z
  .strictObject({
    token: z.string().min(1).max(200),
    email: Email,
    password: Password,
    workspaceName: z.string().trim().min(1).max(200),
  })
  .openapi('SetupIn');
export const LoginIn = z.strictObject({ email: z.string().max(320), password: Password }).openapi('LoginIn');
export const AcceptInviteIn = z
  .strictObject({ token: z.string().min(1).max(200), password: Password })
  .openapi('AcceptInviteIn');
export const WorkspaceIn = z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('WorkspaceIn');
export const MemberIn = z.strictObject({ email: Email, role: z.enum(ROLES) }).openapi('MemberIn');

export const UserOut = z.object({ id: z.string(), email: z.string(), createdAt: z.string() }).openapi('User');
export const WorkspaceOut = z
  .object({ id: z.string(), name: z.string(), role: z.enum(ROLES), createdAt: z.string() })
  .openapi('Workspace');
export const MemberOut = z
  .object({ userId: z.string(), email: z.string(), role: z.enum(ROLES), createdAt: z.string() })
  .openapi('Member');
export const MemberCreated = z
  .object({
    userId: z.string(),
    role: z.enum(ROLES),
    inviteUrl: z.string().nullable().openapi({ description: 'One-time link to set a password; shown only here.' }),
  })
  .openapi('MemberCreated');
export const LoginOut = z.object({ user: UserOut, workspaces: z.array(WorkspaceOut) }).openapi('LoginResult');
export const MeOut = z
  .object({
    user: UserOut.optional(),
    key: z.object({ id: z.string() }).optional(),
    workspace: z.object({ id: z.string(), name: z.string() }),
    role: z.enum(ROLES).optional(),
    permissions: z.array(z.string()),
    channelIds: z.array(z.string()).nullable(),
  })
  .openapi('Me');

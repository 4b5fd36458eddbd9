import { z } from '@hono/zod-openapi';
import { ROLES } from '../../domain/roles.js';

const Email = z.email().max(320);
const Password = z.string().min(1).max(1024);
const Token = z.string().min(1).max(200);

export const SetupIn = z
  .strictObject({ token: Token, email: Email, password: Password, workspaceName: z.string().trim().min(1).max(200) })
  .openapi('SetupIn');
export const LoginIn = z.strictObject({ email: z.string().max(320), password: Password }).openapi('LoginIn');
export const AcceptInviteIn = z
  .strictObject({
    token: Token,
    password: Password.optional().openapi({
      description: 'Creates the account for the invited email. Leave it out when accepting while signed in.',
    }),
  })
  .openapi('AcceptInviteIn');
export const PasswordChangeIn = z
  .strictObject({ currentPassword: Password, newPassword: Password })
  .openapi('PasswordChangeIn');
export const PasswordResetIn = z.strictObject({ token: Token, password: Password }).openapi('PasswordResetIn');
export const WorkspaceIn = z.strictObject({ name: z.string().trim().min(1).max(200) }).openapi('WorkspaceIn');
export const MemberIn = z.strictObject({ email: Email, role: z.enum(ROLES) }).openapi('MemberIn');
export const ServerSettingsIn = z
  .strictObject({
    everyoneCreatesWorkspaces: z.boolean().optional().openapi({
      description:
        'Every account may create workspaces (and so invite people onto the server), not only the server admin and the accounts it allowed.',
    }),
  })
  .openapi('ServerSettingsIn');
export const ServerAccountIn = z
  .strictObject({
    createsWorkspaces: z.boolean().openapi({ description: 'Whether the account may create workspaces.' }),
  })
  .openapi('ServerAccountIn');
export const MemberRoleIn = z.strictObject({ role: z.enum(ROLES) }).openapi('MemberRoleIn');

export const UserOut = z.object({ id: z.string(), email: z.string(), createdAt: z.string() }).openapi('User');
export const WorkspaceOut = z
  .object({ id: z.string(), name: z.string(), role: z.enum(ROLES), createdAt: z.string() })
  .openapi('Workspace');
export const MemberOut = z
  .object({ userId: z.string(), email: z.string(), role: z.enum(ROLES), createdAt: z.string() })
  .openapi('Member');
export const InvitationOut = z
  .object({ id: z.string(), email: z.string(), role: z.enum(ROLES), createdAt: z.string(), expiresAt: z.string() })
  .openapi('Invitation');
export const InvitationCreated = InvitationOut.extend({
  inviteUrl: z.string().openapi({ description: 'One-time link for the invitee; shown only here.' }),
}).openapi('InvitationCreated');
export const ServerSettingsOut = z.object({ everyoneCreatesWorkspaces: z.boolean() }).openapi('ServerSettings');
export const ServerAccountOut = UserOut.extend({
  serverAdmin: z.boolean(),
  createsWorkspaces: z.boolean().openapi({ description: 'The server admin allowed it (always true for the admin).' }),
  ownedWorkspaces: z.number().int().openapi({ description: 'How many workspaces the account is an owner of.' }),
}).openapi('ServerAccount');
export const LoginOut = z.object({ user: UserOut, workspaces: z.array(WorkspaceOut) }).openapi('LoginResult');
const MeUser = UserOut.extend({
  serverAdmin: z.boolean().openapi({ description: 'This account is the server admin.' }),
  mayCreateWorkspaces: z.boolean().openapi({
    description: 'This account may create workspaces now (the admin, an account it allowed, or everyone may).',
  }),
}).openapi('MeUser');
export const MeOut = z
  .object({
    user: MeUser.optional(),
    key: z.object({ id: z.string() }).optional(),
    workspace: z.object({ id: z.string(), name: z.string() }),
    role: z.enum(ROLES).optional(),
    permissions: z.array(z.string()),
    channelIds: z.array(z.string()).nullable(),
  })
  .openapi('Me');

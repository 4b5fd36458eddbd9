/**
 * Who may bring workspaces and people onto the server (docs/deploy.md, "Who may do what"). The server admin (the
 * account first-run setup made) may create workspaces, and decides who else may: the accounts it allows, or every
 * account while the server-wide setting says so. The same right vouches for a workspace's invitations: an
 * invitation brings a new account onto the server only when its workspace has an owner who holds it. So an account
 * nobody trusted cannot make a workspace of its own and invite, then claim, somebody else's address.
 */
import { AppError } from '../errors.js';
import type { AccountStore } from '../store/account-store.js';

/** The server admin, the accounts it allowed, and everyone while the server-wide setting is on. */
export async function mayCreateWorkspaces(accounts: AccountStore, userId: string): Promise<boolean> {
  const user = await accounts.getUser(userId);
  if (!user) return false;
  if (user.serverAdmin || user.createsWorkspaces) return true;
  return (await accounts.serverSettings()).everyoneCreatesWorkspaces;
}

export async function assertMayCreateWorkspaces(accounts: AccountStore, userId: string): Promise<void> {
  if (await mayCreateWorkspaces(accounts, userId)) return;
  throw new AppError(
    'forbidden',
    'This account may not create workspaces: the server admin decides who may (PATCH /v1/server/accounts/{userId}).',
  );
}

export async function assertServerAdmin(accounts: AccountStore, userId: string): Promise<void> {
  if ((await accounts.getUser(userId))?.serverAdmin) return;
  throw new AppError('forbidden', 'Only the server admin can do this.');
}

/** Whether an invitation of this workspace may bring an account that does not exist yet onto the server. */
export async function workspaceMayInvite(accounts: AccountStore, orgId: string): Promise<boolean> {
  if ((await accounts.serverSettings()).everyoneCreatesWorkspaces) return true;
  for (const member of await accounts.membersOf(orgId)) {
    if (member.role !== 'owner') continue;
    const user = await accounts.getUser(member.userId);
    if (user?.serverAdmin || user?.createsWorkspaces) return true;
  }
  return false;
}

export async function assertWorkspaceMayInvite(accounts: AccountStore, orgId: string): Promise<void> {
  if (await workspaceMayInvite(accounts, orgId)) return;
  throw new AppError(
    'forbidden',
    'No owner of this workspace may create workspaces on this server, so it cannot invite people: ' +
      'the server admin can allow one of its owners.',
  );
}

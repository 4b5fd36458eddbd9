/**
 * Invitations (docs/api.md, "Members and invitations"): an owner invites an email address into a
 * workspace; whoever opens the link either creates the account for that address with a password, or,
 * when the address already has an account, accepts while signed in as it. An invitation never touches
 * an existing account's password or sessions, and the answer to the owner is the same whether or not the
 * address has an account. Only a workspace that has an owner the server admin trusts with creating workspaces
 * may invite, and only its invitations create accounts (./server-rights.ts).
 */
import type { Role } from '../domain/roles.js';
import { AppError } from '../errors.js';
import { newId, randomBase62, sha256Hex } from '../ids.js';
import { EmailTakenError, type AccountStore, type InvitationRecord } from '../store/account-store.js';
import { checkPassword, normaliseEmail } from './accounts.js';
import { hashPassword } from './passwords.js';
import { assertWorkspaceMayInvite, workspaceMayInvite } from './server-rights.js';

const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** Creates an invitation; returns it and the secret token for the link (shown once). */
export async function inviteMember(accounts: AccountStore, orgId: string, email: string, role: Role) {
  await assertWorkspaceMayInvite(accounts, orgId);
  const address = normaliseEmail(email);
  const members = await accounts.membersOf(orgId);
  if (members.some((m) => m.email === address)) {
    throw new AppError('conflict', `${address} is already a member; change a role with PATCH /v1/members/:userId.`);
  }
  const token = randomBase62(32);
  const now = Date.now();
  const invitation: InvitationRecord = {
    id: newId('inv'),
    orgId,
    email: address,
    role,
    tokenHash: sha256Hex(token),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + INVITE_TTL_MS).toISOString(),
    acceptedAt: null,
  };
  await accounts.insertInvitation(invitation);
  return { invitation, token };
}

export interface AcceptInput {
  token: string;
  /** Creates the account: only when the invitee is not signed in. */
  password?: string | undefined;
  /** The invitee's own session, when signed in. */
  signedIn?: { userId: string } | undefined;
}

/** Accepts an invitation; returns the member's user id and whether the account was created now. */
export async function acceptInvitation(accounts: AccountStore, input: AcceptInput) {
  const now = new Date().toISOString();
  const invitation = await accounts.findInvitation(sha256Hex(input.token), now);
  if (!invitation) throw invalidLink();
  if (input.signedIn)
    return { userId: await joinSignedIn(accounts, invitation, input.signedIn.userId), created: false };
  if (input.password === undefined) {
    throw new AppError('invalid_request', 'Choose a password for your new account, or sign in first.', {
      errors: [{ path: 'password', message: 'required when not signed in' }],
    });
  }
  checkPassword(input.password);
  // Checked before the address: a link from a workspace nobody vouches for tells nothing about accounts.
  if (!(await workspaceMayInvite(accounts, invitation.orgId))) throw cannotCreate();
  if (await accounts.findUserByEmail(invitation.email)) throw accountExists();
  const newUser = {
    id: newId('usr'),
    email: invitation.email,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    serverAdmin: false,
    createsWorkspaces: false,
  };
  try {
    const userId = await accounts.acceptInvitation(invitation.id, { newUser }, now);
    if (!userId) throw invalidLink();
    return { userId, created: true };
  } catch (err) {
    throw err instanceof EmailTakenError ? accountExists() : err;
  }
}

async function joinSignedIn(accounts: AccountStore, invitation: InvitationRecord, userId: string) {
  const user = await accounts.getUser(userId);
  if (user?.email !== invitation.email) {
    throw new AppError('forbidden', 'This invitation is for another email address; sign in as that account.');
  }
  const joined = await accounts.acceptInvitation(invitation.id, { userId }, new Date().toISOString());
  if (!joined) throw invalidLink();
  return joined;
}

function invalidLink(): AppError {
  return new AppError('unauthorized', 'This invitation link is not valid any more; ask for a new one.');
}

function cannotCreate(): AppError {
  return new AppError(
    'forbidden',
    'This invitation cannot create an account: no owner of its workspace may create workspaces on this server. ' +
      'Ask whoever invited you; an existing account can still accept it while signed in.',
  );
}

function accountExists(): AppError {
  return new AppError('conflict', 'An account with this email exists: sign in, then open the invitation again.');
}

/**
 * The guarantees of AccountStore (see account-store.ts), as one suite every implementation runs:
 * `accountStoreContract('SqliteStore', harness)` with the same harness as the Store contract.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../ids.js';
import { EmailTakenError, type AccountStore, type InvitationRecord } from './account-store.js';
import type { Store } from './store.js';
import type { StoreHarness } from './store.contract.js';

const NOW = '2024-03-01T12:00:00.000Z';
const LATER = '2024-03-09T12:00:00.000Z';
const WEEK = '2024-03-08T12:00:00.000Z';
/** An ordinary account: neither the server admin nor allowed to create workspaces. */
const PLAIN = { serverAdmin: false, createsWorkspaces: false };

export function accountStoreContract(name: string, factory: () => StoreHarness | Promise<StoreHarness>): void {
  describe(`AccountStore contract: ${name}`, () => {
    let harness: StoreHarness;
    let store: Store;
    let accounts: AccountStore;
    let orgId: string;

    beforeEach(async () => {
      harness = await factory();
      store = await harness.open();
      accounts = store.accounts;
      orgId = (await store.defaultOrg()).id;
    });

    afterEach(async () => {
      await store.close();
      await harness.dispose();
    });

    const user = async (email: string) => {
      const u = { id: newId('usr'), email, passwordHash: `hash-of-${email}`, createdAt: NOW, ...PLAIN };
      await accounts.insertUser(u);
      return u;
    };
    const member = async (email: string, role: 'owner' | 'operator' | 'viewer') => {
      const u = await user(email);
      await accounts.insertMembership({ userId: u.id, orgId, role, createdAt: NOW });
      return u;
    };
    const invitation = async (email: string, expiresAt = WEEK): Promise<InvitationRecord> => {
      const i = {
        id: newId('inv'),
        orgId,
        email,
        role: 'operator' as const,
        tokenHash: `hash-${email}-${expiresAt}`,
        createdAt: NOW,
        expiresAt,
        acceptedAt: null,
      };
      await accounts.insertInvitation(i);
      return i;
    };

    it('keeps the last owner: no demotion or removal of it, by any call', async () => {
      const owner = await member('owner@example.com', 'owner');
      const viewer = await member('viewer@example.com', 'viewer');
      expect(await accounts.setMemberRole(orgId, owner.id, 'viewer')).toBe('last_owner');
      expect(await accounts.removeMember(orgId, owner.id)).toBe('last_owner');
      expect(await accounts.setMemberRole(orgId, viewer.id, 'owner')).toBe('ok');
      expect(await accounts.setMemberRole(orgId, owner.id, 'viewer')).toBe('ok');
      expect(await accounts.removeMember(orgId, viewer.id)).toBe('last_owner');
      expect(await accounts.setMemberRole(orgId, 'usr_nobody', 'viewer')).toBe('not_member');
    });

    it('lets exactly one of two concurrent demotions of two owners through', async () => {
      const a = await member('a@example.com', 'owner');
      const b = await member('b@example.com', 'owner');
      const results = await Promise.all([
        accounts.setMemberRole(orgId, a.id, 'viewer'),
        accounts.removeMember(orgId, b.id),
      ]);
      expect(results.sort()).toEqual(['last_owner', 'ok']);
      const owners = (await accounts.membersOf(orgId)).filter((m) => m.role === 'owner');
      expect(owners).toHaveLength(1);
    });

    it('refuses a second membership of the same user (roles change through setMemberRole)', async () => {
      const u = await member('u@example.com', 'viewer');
      await expect(accounts.insertMembership({ userId: u.id, orgId, role: 'owner', createdAt: NOW })).rejects.toThrow();
      expect((await accounts.membershipsOf(u.id)).map((m) => m.role)).toEqual(['viewer']);
    });

    it('accepts an invitation once: the first acceptance creates the user and the membership', async () => {
      const inv = await invitation('new@example.com');
      expect((await accounts.findInvitation(inv.tokenHash, NOW))?.id).toBe(inv.id);
      const newUser = { id: newId('usr'), email: 'new@example.com', passwordHash: 'h', createdAt: NOW, ...PLAIN };
      const again = { ...newUser, id: newId('usr') };
      const results = await Promise.all([
        accounts.acceptInvitation(inv.id, { newUser }, NOW),
        accounts.acceptInvitation(inv.id, { newUser: again }, NOW).catch((e: unknown) => e),
      ]);
      expect(results.filter((r) => typeof r === 'string')).toEqual([newUser.id]);
      expect((await accounts.membershipsOf(newUser.id)).map((m) => m.role)).toEqual(['operator']);
      expect(await accounts.findInvitation(inv.tokenHash, NOW)).toBeUndefined();
      expect(await accounts.listInvitations(orgId, NOW)).toEqual([]);
    });

    it('refuses to create a user whose email exists, and leaves the invitation pending', async () => {
      await user('taken@example.com');
      const inv = await invitation('taken@example.com');
      const newUser = { id: newId('usr'), email: 'taken@example.com', passwordHash: 'h', createdAt: NOW, ...PLAIN };
      await expect(accounts.acceptInvitation(inv.id, { newUser }, NOW)).rejects.toBeInstanceOf(EmailTakenError);
      await expect(accounts.insertUser(newUser)).rejects.toBeInstanceOf(EmailTakenError);
      expect((await accounts.findInvitation(inv.tokenHash, NOW))?.id).toBe(inv.id);
    });

    it('joins an existing user and leaves an existing membership as it is', async () => {
      const u = await member('m@example.com', 'viewer');
      const inv = await invitation('m@example.com');
      expect(await accounts.acceptInvitation(inv.id, { userId: u.id }, NOW)).toBe(u.id);
      expect((await accounts.membershipsOf(u.id)).map((m) => m.role)).toEqual(['viewer']);
    });

    it('does not find, list or accept an expired or withdrawn invitation', async () => {
      const old = await invitation('old@example.com', NOW);
      expect(await accounts.findInvitation(old.tokenHash, NOW)).toBeUndefined();
      expect(await accounts.acceptInvitation(old.id, { userId: 'usr_x' }, NOW)).toBeUndefined();
      const gone = await invitation('gone@example.com');
      expect(await accounts.deleteInvitation('org_other', gone.id)).toBe(false);
      expect(await accounts.deleteInvitation(orgId, gone.id)).toBe(true);
      expect(await accounts.findInvitation(gone.tokenHash, NOW)).toBeUndefined();
      expect(await accounts.listInvitations(orgId, NOW)).toEqual([]);
    });

    it('setPassword ends every session of the user but the one kept', async () => {
      const u = await user('s@example.com');
      const other = await user('o@example.com');
      for (const hash of ['s1', 's2', 's3'])
        await accounts.insertSession({ hash, userId: u.id, createdAt: NOW, expiresAt: WEEK });
      await accounts.insertSession({ hash: 'o1', userId: other.id, createdAt: NOW, expiresAt: WEEK });
      await accounts.setPassword(u.id, 'new-hash', 's2');
      expect((await accounts.getUser(u.id))?.passwordHash).toBe('new-hash');
      expect(await accounts.findSession('s1')).toBeUndefined();
      expect(await accounts.findSession('s2')).toBeDefined();
      expect(await accounts.findSession('o1')).toBeDefined();
      await accounts.setPassword(u.id, 'newer-hash');
      expect(await accounts.findSession('s2')).toBeUndefined();
    });

    it('setPassword withdraws every unused reset token of the user, and no one else’s', async () => {
      const u = await user('r@example.com');
      const other = await user('q@example.com');
      const token = (hash: string, userId: string | null, kind: 'reset' | 'setup' = 'reset') => ({
        hash,
        kind,
        orgId: kind === 'setup' ? orgId : null,
        userId,
        createdAt: NOW,
        expiresAt: WEEK,
        usedAt: null,
      });
      for (const t of [token('r1', u.id), token('r2', u.id), token('q1', other.id), token('s1', null, 'setup')])
        await accounts.insertToken(t);
      await accounts.setPassword(u.id, 'new-hash');
      expect(await accounts.consumeToken('r1', 'reset', NOW)).toBeUndefined();
      expect(await accounts.consumeToken('r2', 'reset', NOW)).toBeUndefined();
      expect(await accounts.consumeToken('q1', 'reset', NOW)).toBeDefined();
      expect(await accounts.consumeToken('s1', 'setup', NOW)).toBeDefined();
    });

    it('keeps one server admin; lists every user with its rights and the workspaces it owns', async () => {
      const admin = { id: newId('usr'), email: 'admin@example.com', passwordHash: 'h', createdAt: NOW };
      await accounts.insertUser({ ...admin, serverAdmin: true, createsWorkspaces: true });
      await accounts.insertMembership({ userId: admin.id, orgId, role: 'owner', createdAt: NOW });
      const second = { id: newId('usr'), email: 'second@example.com', passwordHash: 'h', createdAt: LATER };
      await expect(accounts.insertUser({ ...second, serverAdmin: true, createsWorkspaces: true })).rejects.toThrow();
      await expect(
        accounts.insertUser({ ...second, serverAdmin: true, createsWorkspaces: true }),
      ).rejects.not.toBeInstanceOf(EmailTakenError);
      const viewer = await member('viewer@example.com', 'viewer');
      expect(await accounts.setCreatesWorkspaces(viewer.id, true)).toBe(true);
      expect(await accounts.setCreatesWorkspaces('usr_nobody', true)).toBe(false);
      expect((await accounts.getUser(viewer.id))?.createsWorkspaces).toBe(true);
      const listed = (await accounts.listUsers()).map((a) => [
        a.email,
        a.serverAdmin,
        a.createsWorkspaces,
        a.ownedWorkspaces,
      ]);
      expect(listed).toEqual([
        ['admin@example.com', true, true, 1],
        ['viewer@example.com', false, true, 0],
      ]);
      expect(await accounts.setCreatesWorkspaces(viewer.id, false)).toBe(true);
      expect((await accounts.getUser(viewer.id))?.createsWorkspaces).toBe(false);
    });

    it('starts with workspace creation closed to all but the allowed, and changes only what is named', async () => {
      expect(await accounts.serverSettings()).toEqual({ everyoneCreatesWorkspaces: false });
      expect(await accounts.updateServerSettings({})).toEqual({ everyoneCreatesWorkspaces: false });
      expect(await accounts.updateServerSettings({ everyoneCreatesWorkspaces: true })).toEqual({
        everyoneCreatesWorkspaces: true,
      });
      expect(await accounts.updateServerSettings({})).toEqual({ everyoneCreatesWorkspaces: true });
      expect(await accounts.serverSettings()).toEqual({ everyoneCreatesWorkspaces: true });
    });

    it('consumes a one-time token once', async () => {
      await accounts.insertToken({
        hash: 't',
        kind: 'reset',
        orgId: null,
        userId: null,
        createdAt: NOW,
        expiresAt: WEEK,
        usedAt: null,
      });
      expect(await accounts.consumeToken('t', 'setup', NOW)).toBeUndefined();
      const both = await Promise.all([
        accounts.consumeToken('t', 'reset', NOW),
        accounts.consumeToken('t', 'reset', NOW),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });

    it('prunes expired sessions, used or expired tokens and settled invitations, and nothing live', async () => {
      const u = await user('p@example.com');
      await accounts.insertSession({ hash: 'dead', userId: u.id, createdAt: NOW, expiresAt: WEEK });
      await accounts.insertSession({
        hash: 'live',
        userId: u.id,
        createdAt: NOW,
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      const token = (hash: string, expiresAt: string) => ({
        hash,
        kind: 'reset' as const,
        orgId: null,
        userId: u.id,
        createdAt: NOW,
        expiresAt,
        usedAt: null,
      });
      await accounts.insertToken(token('expired', WEEK));
      await accounts.insertToken(token('used', '2099-01-01T00:00:00.000Z'));
      await accounts.insertToken(token('fresh', '2099-01-01T00:00:00.000Z'));
      await accounts.consumeToken('used', 'reset', NOW);
      await invitation('expired@example.com', WEEK);
      const pending = await invitation('pending@example.com', '2099-01-01T00:00:00.000Z');
      expect(await accounts.prune(LATER)).toEqual({ sessions: 1, tokens: 2, invitations: 1 });
      expect(await accounts.findSession('live')).toBeDefined();
      expect(await accounts.consumeToken('fresh', 'reset', LATER)).toBeDefined();
      expect((await accounts.listInvitations(orgId, LATER)).map((i) => i.id)).toEqual([pending.id]);
      expect(await accounts.prune(LATER)).toEqual({ sessions: 0, tokens: 1, invitations: 0 });
    });
  });
}

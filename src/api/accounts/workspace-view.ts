import type { AccountStore } from '../../store/account-store.js';

export async function userWorkspaces(accounts: AccountStore, userId: string) {
  const memberships = await accounts.membershipsOf(userId);
  const out = [];
  for (const m of memberships) {
    const org = await accounts.getOrg(m.orgId);
    if (org) out.push({ id: org.id, name: org.name, role: m.role, createdAt: org.createdAt });
  }
  return out;
}

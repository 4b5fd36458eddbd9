/**
 * Dashboard roles (docs/api.md, "Accounts"): shared by storage, auth and the API, so it lives below all
 * of them.
 */
export const ROLES = ['owner', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The incoming-webhook shapes of docs/incoming-hooks.md, written out from the documentation (not imported from
 * src/) so the tests check the contract.
 */

export interface Hook {
  id: string;
  channelId: string;
  name: string;
  mapping: Record<string, string>;
  requireSignature: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The answer to creating a hook: the only time its URL and secret are shown. */
export interface HookCreated extends Hook {
  url: string;
  secret: string | null;
}

export interface HookAnswer {
  frame: number | null;
  applied: Record<string, unknown>;
  ignored: string[];
  dryRun?: boolean;
}

/** A line of a hook's log. */
export interface Delivery {
  at: string;
  status: number;
  applied: Record<string, unknown>;
  ignored: string[];
  error: string | null;
  payload: string;
  dryRun: boolean;
}

/** A line of a hook's refusal log: the posts refused at its door in one second. */
export interface Refusal {
  at: string;
  status: number;
  error: string;
  payload: string;
  count: number;
}

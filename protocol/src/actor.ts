/**
 * Who did something (docs/api.md, "Events"): every event, history entry and as-run line carries one. A dashboard
 * user by id and email, an API key by id and name, an incoming hook by id and name; `schedule` for what the server
 * did at a time someone set, `system` for what it did by itself (an item's duration running out).
 */
export const ACTOR_TYPES = ['user', 'key', 'hook', 'source', 'schedule', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  type: ActorType;
  id: string;
  /** The user's email, the key's or hook's name; a word for the server's own actors. */
  name: string;
}

/** The server itself. */
export const SYSTEM_ACTOR: Actor = { type: 'system', id: 'system', name: 'onair' };

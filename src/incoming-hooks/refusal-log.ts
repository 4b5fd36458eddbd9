/**
 * The log of posts refused at a hook's door (docs/incoming-hooks.md, "The hook's log"): rate limited, badly
 * signed, replayed. A flood of them must cost little and must not push accepted posts out of the hook's log, so
 * they have a log of their own with one line per second: the first refusal of a second is written at once, the
 * others of that second are only counted here and added to its line when the second is over (at most two writes
 * per hook per second on each node; nodes writing the same second add to one line).
 */
import type { HookRefusalRecord, IncomingHookStore } from '../store/incoming-hook-store.js';

/** Refusal lines each hook keeps (seconds in which something was refused). */
export const REFUSALS_KEEP = 50;

export type Refusal = Omit<HookRefusalRecord, 'at' | 'count'>;

interface Second {
  second: number;
  first: HookRefusalRecord;
  /** Refusals counted after the first, not yet written. */
  pending: number;
  timer: NodeJS.Timeout;
}

export interface RefusalLogDeps {
  store: Pick<IncomingHookStore, 'logRefusal'>;
  now: () => number;
  onError: (err: unknown, hookId: string) => void;
}

export function createRefusalLog(deps: RefusalLogDeps) {
  const open = new Map<string, Second>();
  const write = (hookId: string, entry: HookRefusalRecord) =>
    deps.store.logRefusal(hookId, entry, REFUSALS_KEEP).catch((err: unknown) => deps.onError(err, hookId));

  const close = (hookId: string, s: Second): Promise<void> => {
    clearTimeout(s.timer);
    if (open.get(hookId) === s) open.delete(hookId);
    return s.pending > 0 ? write(hookId, { ...s.first, count: s.pending }) : Promise.resolve();
  };

  return {
    /** Notes a refused post; resolves once the line is written when it is the first of its second. */
    async note(hookId: string, refusal: Refusal): Promise<void> {
      const nowMs = deps.now();
      const second = Math.floor(nowMs / 1000);
      const current = open.get(hookId);
      if (current?.second === second) {
        current.pending++;
        return;
      }
      if (current) void close(hookId, current);
      const first = { ...refusal, at: new Date(second * 1000).toISOString(), count: 1 };
      const s: Second = { second, first, pending: 0, timer: setTimeout(() => void close(hookId, s), 1000) };
      s.timer.unref();
      open.set(hookId, s);
      await write(hookId, first);
    },

    /** Writes every count not yet written (a server stopping). */
    async flush(): Promise<void> {
      await Promise.all([...open].map(([hookId, s]) => close(hookId, s)));
    },
  };
}

export type RefusalLog = ReturnType<typeof createRefusalLog>;

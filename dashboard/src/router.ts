/**
 * Hash routes (`#/channels/ch_…/live`): the server serves one page at `/`, and every view has a URL an
 * operator can bookmark or share with a colleague. A view with unsaved work sets a leave guard: moving to another
 * route then waits for the user to say "leave" (the URL is put back meanwhile).
 */
import { signal } from '@preact/signals';

export const route = signal(readRoute());

/** A navigation waiting for the user's word: where to, and why it was stopped. */
export const pendingLeave = signal<{ hash: string; reason: string } | null>(null);

let guard: (() => string | null) | null = null;
let currentHash = location.hash;

function readRoute(): string[] {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash === '' ? [] : hash.split('/').map((part) => decodeURIComponent(part));
}

addEventListener('hashchange', () => {
  const reason = guard?.() ?? null;
  if (reason !== null && location.hash !== currentHash) {
    pendingLeave.value = { hash: location.hash, reason };
    // Back to the page being left, without a history entry or another hashchange.
    history.replaceState(history.state, '', currentHash || location.pathname + location.search);
    return;
  }
  currentHash = location.hash;
  route.value = readRoute();
});

/**
 * While set, a route change asks first when `check` answers a reason (null: nothing to lose). Returns the function
 * that removes it.
 */
export function setLeaveGuard(check: () => string | null): () => void {
  guard = check;
  return () => {
    if (guard === check) guard = null;
  };
}

/** The user said leave: the stopped navigation goes on, and the guard is dropped. */
export function leaveAnyway(): void {
  const pending = pendingLeave.value;
  pendingLeave.value = null;
  if (!pending) return;
  guard = null;
  location.hash = pending.hash;
}

export function stayHere(): void {
  pendingLeave.value = null;
}

export function href(...parts: string[]): string {
  return '#/' + parts.map((part) => encodeURIComponent(part)).join('/');
}

export function navigate(...parts: string[]): void {
  location.hash = href(...parts);
}

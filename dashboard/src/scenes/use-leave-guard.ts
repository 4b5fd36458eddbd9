import { useEffect, useRef } from 'preact/hooks';
import { setLeaveGuard } from '../router.js';

/**
 * While `unsaved` gives a reason, leaving asks first: a route change in the dashboard (the leave dialog) and closing
 * or reloading the tab (the browser's own question). Returns `allowLeave`, called just before a navigation the
 * editor makes itself (after a save or a delete), which must not ask.
 */
export function useLeaveGuard(unsaved: string | null): () => void {
  const reason = useRef(unsaved);
  reason.current = unsaved;
  const allowed = useRef(false);
  useEffect(() => {
    const check = () => (allowed.current ? null : reason.current);
    const remove = setLeaveGuard(check);
    const onUnload = (e: BeforeUnloadEvent) => {
      if (check() === null) return;
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = '';
    };
    addEventListener('beforeunload', onUnload);
    return () => {
      remove();
      removeEventListener('beforeunload', onUnload);
    };
  }, []);
  return () => {
    allowed.current = true;
  };
}

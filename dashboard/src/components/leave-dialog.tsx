import { leaveAnyway, pendingLeave, stayHere } from '../router.js';
import { ModalDialog } from './modal-dialog.js';

/** Asks before a route change would lose unsaved work (router.ts, setLeaveGuard). Stay has the focus. */
export function LeaveDialog() {
  const pending = pendingLeave.value;
  if (!pending) return null;
  return (
    <ModalDialog title="Leave without saving?" role="alertdialog" onClose={stayHere}>
      <p>{pending.reason}</p>
      <div class="row dialog-actions">
        <button type="button" class="danger" onClick={leaveAnyway}>
          Leave without saving
        </button>
        <button type="button" autoFocus onClick={stayHere}>
          Stay
        </button>
      </div>
    </ModalDialog>
  );
}

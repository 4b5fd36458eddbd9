/**
 * Clear all asks first (a dialog; Cancel has the focus, so Enter or Esc keeps the air as it is), unless the operator
 * turned that off for their own session: the choice is kept in sessionStorage, so it ends with the tab and never
 * reaches another operator.
 */
import { signal } from '@preact/signals';
import type { ChannelState } from '../../../renderer/src/channel-state.js';
import { ModalDialog } from '../components/modal-dialog.js';
import type { LiveChannel } from './live-socket.js';

const PREFERENCE_KEY = 'onair.clearAll.confirm';

function readPreference(): boolean {
  try {
    return sessionStorage.getItem(PREFERENCE_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Whether Clear all asks first in this tab. */
export const confirmClearAll = signal(readPreference());

export function setConfirmClearAll(ask: boolean): void {
  confirmClearAll.value = ask;
  try {
    if (ask) sessionStorage.removeItem(PREFERENCE_KEY);
    else sessionStorage.setItem(PREFERENCE_KEY, 'off');
  } catch {
    // Storage refused (a private window's quota): the choice still holds until the page is reloaded.
  }
}

const asking = signal(false);

/** The Clear all button and Shift + X: asks first, or clears at once when the operator said not to ask. */
export function requestClearAll(live: LiveChannel): void {
  if (confirmClearAll.value) asking.value = true;
  else sendClearAll(live);
}

function sendClearAll(live: LiveChannel): void {
  void live.send('Clear all', { op: 'clear' }).catch(() => undefined);
}

export function ClearAllDialog({ live, state }: { live: LiveChannel; state: ChannelState }) {
  if (!asking.value) return null;
  const close = () => (asking.value = false);
  const names = state.program.map((e) => state.scenes[e.sceneId]?.name ?? e.sceneId);
  return (
    <ModalDialog title="Clear everything off air?" role="alertdialog" onClose={close} class="clear-all-dialog">
      <p>
        {names.length === 0 ? 'Nothing is on air now.' : `Leaves the air: ${names.join(', ')}.`} Ctrl + Z (Undo) puts it
        back.
      </p>
      <label class="check">
        <input
          type="checkbox"
          checked={!confirmClearAll.value}
          onChange={(e) => setConfirmClearAll(!e.currentTarget.checked)}
        />
        Don’t ask again in this session
      </label>
      <div class="row dialog-actions">
        <button
          type="button"
          class="danger"
          onClick={() => {
            close();
            sendClearAll(live);
          }}
        >
          Clear all
        </button>
        <button type="button" autoFocus onClick={close}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}

/** The same choice, where it can be turned back on (the Keyboard panel). */
export function ClearAllPreference() {
  return (
    <label class="check">
      <input
        type="checkbox"
        checked={confirmClearAll.value}
        onChange={(e) => setConfirmClearAll(e.currentTarget.checked)}
      />
      Ask before Clear all (this session)
    </label>
  );
}

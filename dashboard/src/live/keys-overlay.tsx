import { signal } from '@preact/signals';
import { ModalDialog } from '../components/modal-dialog.js';
import { SHORTCUTS, type Shortcut } from './shortcuts.js';

/** Whether the `?` overlay is shown. */
export const keysShown = signal(false);

/** Every key of the live view, by group, over the page (`?` or Esc closes it). */
export function KeysOverlay() {
  if (!keysShown.value) return null;
  const close = () => (keysShown.value = false);
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))];
  return (
    <ModalDialog title="Keyboard shortcuts" onClose={close} class="keys-overlay">
      <p class="hint">Keys act when the focus is not in a text field. Press ? again or Esc to close.</p>
      <div class="key-groups">
        {groups.map((group) => (
          <KeyTable key={group} title={group} shortcuts={SHORTCUTS.filter((s) => s.group === group)} />
        ))}
      </div>
      <div class="row dialog-actions">
        <button type="button" onClick={close} autoFocus>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}

function KeyTable({ title, shortcuts }: { title: string; shortcuts: Shortcut[] }) {
  return (
    <table class="key-table">
      <caption>{title}</caption>
      <tbody>
        {shortcuts.map((s) => (
          <tr key={s.keys}>
            <th scope="row">
              <kbd>{s.keys}</kbd>
            </th>
            <td>{s.does}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { ClearAllPreference } from './clear-all.js';
import { keysShown } from './keys-overlay.js';
import { SHORTCUTS } from './shortcuts.js';

/** Every key, listed in the side column (the `?` overlay shows the same table over the page), and the safety choice. */
export function KeyboardPanel() {
  return (
    <section class="panel shortcuts" aria-labelledby="keys-title">
      <div class="panel-head">
        <h2 id="keys-title">Keyboard</h2>
        <button type="button" class="quiet" onClick={() => (keysShown.value = true)} aria-keyshortcuts="?">
          Show over the page (?)
        </button>
      </div>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.keys}>
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
      <ClearAllPreference />
    </section>
  );
}

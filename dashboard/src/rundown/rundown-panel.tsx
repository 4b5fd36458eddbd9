import { useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button.js';
import { AddItemForm } from './add-item-form.js';
import { createRundown, deleteRundown, rundownsOf } from './rundown-edits.js';
import { RundownItems } from './rundown-items.js';
import type { Show } from './show-actions.js';

/**
 * The channel's rundown beside the monitors (docs/dashboard.md, "The rundown"): pick one of the channel's rundowns
 * or create one, its items with their state and the shared focus, and an item added from a scene. The rundown, its
 * focus and its items' states are the server's, shared by every operator.
 */
export function RundownPanel({
  show,
  canPlay,
  onPick,
}: {
  show: Show;
  canPlay: boolean;
  onPick: (rundownId: string) => void;
}) {
  const { live, state, rundown } = show;
  const rundowns = rundownsOf(state);
  const [creating, setCreating] = useState(false);
  return (
    <section class="panel rundown" aria-labelledby="rundown-title">
      <div class="panel-head">
        <h2 id="rundown-title">Rundown</h2>
        {rundowns.length > 0 && (
          <label class="inline">
            <span class="visually-hidden">Open rundown</span>
            <select
              value={rundown?.id ?? ''}
              onChange={(e) => {
                onPick(e.currentTarget.value);
                // The keys (Space, arrows) act on the rundown again at once, not on this menu.
                e.currentTarget.blur();
              }}
            >
              {rundowns.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {canPlay && !creating && (
          <button type="button" onClick={() => setCreating(true)} aria-label="New rundown">
            + New
          </button>
        )}
        {canPlay && rundown && (
          <ConfirmButton
            question={`Delete the rundown ${rundown.name} and its items?`}
            confirmLabel="Delete rundown"
            onConfirm={() => deleteRundown(live, rundown)}
            label={`Delete rundown ${rundown.name}`}
            small
          >
            ✕
          </ConfirmButton>
        )}
      </div>
      {creating && (
        <NewRundown
          onDone={(id) => {
            setCreating(false);
            if (id) onPick(id);
          }}
          create={(name) => createRundown(live, name)}
        />
      )}
      {rundowns.length === 0 && !creating && (
        <p class="empty">No rundown yet.{canPlay ? ' Create one to prepare the show’s graphics as items.' : ''}</p>
      )}
      {rundown && <RundownItems show={show} rundown={rundown} canPlay={canPlay} />}
      {rundown && canPlay && <AddItemForm live={live} state={state} rundown={rundown} />}
    </section>
  );
}

function NewRundown({
  create,
  onDone,
}: {
  create: (name: string) => Promise<string | null>;
  onDone: (id: string | null) => void;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="row new-rundown"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim() === '') return;
        setBusy(true);
        void create(name.trim()).then((id) => {
          setBusy(false);
          if (id) onDone(id);
        });
      }}
    >
      <label>
        <span class="visually-hidden">New rundown name</span>
        <input
          value={name}
          placeholder="Rundown name"
          maxLength={100}
          onInput={(e) => setName(e.currentTarget.value)}
          autoFocus
        />
      </label>
      <button type="submit" class="primary" disabled={busy || name.trim() === ''}>
        Create rundown
      </button>
      <button type="button" class="quiet" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}

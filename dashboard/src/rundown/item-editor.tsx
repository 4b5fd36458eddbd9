import { useEffect, useState } from 'preact/hooks';
import type { InputValue, RundownItem } from '@onair/protocol';
import { changesOf, itemInputs, type ItemDraft, type ItemDrafts } from './item-drafts.js';
import { ItemValueInput } from './item-value-input.js';
import { focusedItem, nameOf, saveItem, type Show } from './show-actions.js';

/**
 * The focused item's values, label, notes and duration, edited here and saved with the version the edit started from
 * (a refusal because someone else changed it says so and shows the item as saved). Update on air (the transport
 * bar, F5) sends the edited values to the item on air at the next frame.
 */
export function ItemEditor({ show, canPlay }: { show: Show; canPlay: boolean }) {
  const item = focusedItem(show);
  return (
    <section class="panel item-editor" aria-labelledby="item-title">
      <h2 id="item-title">{item ? `Focused item: ${nameOf(show, item)}` : 'Focused item'}</h2>
      {item ? (
        <ItemForm key={item.id} show={show} item={item} canPlay={canPlay} />
      ) : (
        <p class="empty">{show.rundown ? 'No item is focused: click one, or use ↑ / ↓.' : 'Open a rundown first.'}</p>
      )}
    </section>
  );
}

function ItemForm({ show, item, canPlay }: { show: Show; item: RundownItem; canPlay: boolean }) {
  const { state, drafts } = show;
  const scene = state.scenes[item.sceneId];
  const draft: ItemDraft | undefined = drafts.drafts.value[item.id];
  const notice = drafts.notices.value[item.id];
  const dirty = changesOf(item, draft) !== null;
  const onAir = state.program.some((e) => e.itemId === item.id);
  const valueOf = (name: string): InputValue | undefined =>
    draft && name in draft.values ? draft.values[name] : item.values[name];
  const readOnly = !canPlay;
  return (
    <form
      class="item-form"
      data-item={item.id}
      onSubmit={(e) => {
        e.preventDefault();
        void saveItem(show, item);
      }}
    >
      {notice && (
        <p class="problem" role="alert">
          {notice}
        </p>
      )}
      <fieldset class="plain item-values" aria-label="Item values">
        {itemInputs(scene).length === 0 && <p class="hint small">Its scene has no item inputs.</p>}
        {itemInputs(scene).map((def) => (
          <ItemValueInput
            key={def.name}
            def={def}
            id={`item-value-${def.name}`}
            value={valueOf(def.name)}
            fallback={state.inputs[def.name] ?? def.default}
            readOnly={readOnly}
            onChange={(v) => drafts.editValue(item, def.name, v)}
          />
        ))}
      </fieldset>
      <ItemMeta item={item} draft={draft} drafts={drafts} readOnly={readOnly} />
      {canPlay && (
        <div class="row item-buttons">
          <button type="submit" class="primary" disabled={!dirty}>
            Save item
          </button>
          <button type="button" class="quiet" disabled={!draft} onClick={() => drafts.discard(item.id)}>
            Revert
          </button>
          <span class="hint small" aria-live="polite">
            {dirty
              ? onAir
                ? 'Unsaved: Update on air (F5) puts them on air'
                : 'Unsaved changes'
              : onAir
                ? 'On air'
                : ''}
          </span>
        </div>
      )}
    </form>
  );
}

/** Label, duration and notes. The duration is shown as typed (seconds) until the draft is saved or dropped. */
function ItemMeta({
  item,
  draft,
  drafts,
  readOnly,
}: {
  item: RundownItem;
  draft: ItemDraft | undefined;
  drafts: ItemDrafts;
  readOnly: boolean;
}) {
  const [durationText, setDurationText] = useState<string | null>(null);
  useEffect(() => {
    if (draft?.durationMs === undefined) setDurationText(null);
  }, [draft?.durationMs]);
  return (
    <div class="item-meta">
      <label>
        Label
        <input
          value={draft?.label ?? item.label}
          readOnly={readOnly}
          maxLength={200}
          onInput={(e) => drafts.edit(item, { label: e.currentTarget.value })}
        />
      </label>
      <label>
        Duration (s)
        <input
          inputMode="decimal"
          placeholder="stays"
          value={durationText ?? seconds(item.durationMs)}
          readOnly={readOnly}
          onInput={(e) => {
            setDurationText(e.currentTarget.value);
            drafts.edit(item, { durationMs: durationOf(e.currentTarget.value) });
          }}
        />
      </label>
      <label class="wide">
        Notes
        <textarea
          rows={2}
          value={draft?.notes ?? item.notes}
          readOnly={readOnly}
          maxLength={2000}
          onInput={(e) => drafts.edit(item, { notes: e.currentTarget.value })}
        />
      </label>
    </div>
  );
}

const seconds = (ms: number | null) => (ms === null ? '' : String(ms / 1000));

function durationOf(text: string): number | null {
  const s = Number(text);
  return text.trim() === '' || !Number.isFinite(s) || s <= 0 ? null : Math.max(100, Math.round(s * 1000));
}

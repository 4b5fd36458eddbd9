/**
 * A section of the scene editor that edits one list of the definition (its inputs, elements, triggers; the
 * transitions' in and out): the heading, the errors about the list itself rather than one of its items, the
 * items, and the controls that add one. ItemActions are an item's up, down and remove buttons; listEdit turns
 * an item's add, change, move and remove into the definition's next value.
 */
import type { ComponentChildren } from 'preact';
import type { FieldError } from '../api.js';
import { listOf, moved, removed, replaced, withKey, type Obj } from './draft.js';
import { OtherErrors } from './fields.js';
import { unshownErrors } from './path-errors.js';

export interface ListSectionProps {
  /** The definition's key (`inputs`): names the heading and where the list's own errors are. */
  name: string;
  title: string;
  hint?: ComponentChildren;
  errors: readonly FieldError[];
  /** The items' keys (indexes, or `in` and `out`): errors inside an item are the item's to show. */
  keys: readonly string[];
  /** Said when there is no item; nothing when not given. */
  empty?: string;
  /** The controls that add an item. */
  add?: ComponentChildren;
  children: ComponentChildren;
}

export function ListSection({ name, title, hint, errors, keys, empty, add, children }: ListSectionProps) {
  return (
    <section class="editor-section" aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`}>{title}</h2>
      {hint && <p class="hint">{hint}</p>}
      <OtherErrors where={`the ${name}`} errors={unshownErrors(errors, `definition.${name}`, keys)} />
      {keys.length === 0 && empty && <p class="empty">{empty}</p>}
      {children}
      {add}
    </section>
  );
}

/** An item's buttons: up and down when the list's order matters (`onMove`), and remove. */
export function ItemActions({
  title,
  index,
  count,
  onMove,
  onRemove,
}: {
  /** The item's title, which each button names for screen readers. */
  title: string;
  index: number;
  count: number;
  onMove?: ((delta: number) => void) | undefined;
  onRemove: () => void;
}) {
  return (
    <div class="card-actions">
      {onMove && (
        <>
          <button type="button" class="quiet" disabled={index === 0} onClick={() => onMove(-1)}>
            <span aria-hidden="true">↑</span> Up<span class="visually-hidden"> ({title})</span>
          </button>
          <button type="button" class="quiet" disabled={index === count - 1} onClick={() => onMove(1)}>
            <span aria-hidden="true">↓</span> Down<span class="visually-hidden"> ({title})</span>
          </button>
        </>
      )}
      <button type="button" class="danger" onClick={onRemove}>
        Remove<span class="visually-hidden"> {title}</span>
      </button>
    </div>
  );
}

export interface ListEdit {
  items: unknown[];
  /** The items' keys, as ListSection takes them. */
  keys: string[];
  add(item: unknown): void;
  replace(index: number, item: unknown): void;
  move(index: number, delta: number): void;
  remove(index: number): void;
}

/** The list under `key` of the definition, and its edits, each handing the next definition to `onChange`. */
export function listEdit(definition: Obj, key: string, onChange: (definition: Obj) => void): ListEdit {
  const items = listOf(definition, key);
  const set = (next: unknown[]) => onChange(withKey(definition, key, next));
  return {
    items,
    keys: items.map((_, i) => String(i)),
    add: (item) => set([...items, item]),
    replace: (index, item) => set(replaced(items, index, item)),
    move: (index, delta) => set(moved(items, index, delta)),
    remove: (index) => set(removed(items, index)),
  };
}

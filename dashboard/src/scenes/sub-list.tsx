/**
 * A list inside an input's card (a clock's periods, a list's columns): its legend, the errors about the list
 * itself rather than one of its items, the items, and the control that adds one. SubItem is one item's card, with
 * its Up, Down and Remove buttons and the errors none of its fields shows.
 */
import type { ComponentChildren } from 'preact';
import type { FieldError } from '../api.js';
import { moved, removed, replaced } from './draft.js';
import { OtherErrors } from './fields.js';
import { ItemActions } from './list-section.js';
import { fieldId, unshownErrors } from './path-errors.js';

export function SubList({
  title,
  path,
  hint,
  errors,
  count,
  empty,
  add,
  children,
}: {
  title: string;
  /** The list's path (`definition.inputs.2.periods`): its own errors, and where an error's link lands. */
  path: string;
  hint?: string;
  errors: readonly FieldError[];
  count: number;
  empty: string;
  add: ComponentChildren;
  children: ComponentChildren;
}) {
  const keys = Array.from({ length: count }, (_, i) => String(i));
  return (
    <fieldset class="sub-list wide" id={fieldId(path)} tabIndex={-1}>
      <legend>{title}</legend>
      {hint && <p class="hint small">{hint}</p>}
      <OtherErrors where={title.toLowerCase()} errors={unshownErrors(errors, path, keys)} />
      {count === 0 && <p class="empty">{empty}</p>}
      {children}
      <div class="add-row">{add}</div>
    </fieldset>
  );
}

export function SubItem({
  title,
  name,
  path,
  index,
  count,
  errors,
  shown,
  onMove,
  onRemove,
  children,
}: {
  /** `Period 2`: the legend, and what its buttons name. */
  title: string;
  /** The item's name, shown after the title once it has one. */
  name: unknown;
  path: string;
  index: number;
  count: number;
  errors: readonly FieldError[];
  /** The keys its fields show errors for; the others are listed in the card. */
  shown: readonly string[];
  onMove: (delta: number) => void;
  onRemove: () => void;
  children: ComponentChildren;
}) {
  return (
    <fieldset class="card" id={fieldId(path)} tabIndex={-1}>
      <legend>
        {title}
        {typeof name === 'string' && name ? ` · ${name}` : ''}
      </legend>
      <ItemActions title={title} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      <OtherErrors where={title} errors={unshownErrors(errors, path, shown)} />
      <div class="field-grid">{children}</div>
    </fieldset>
  );
}

/** The edits of a list held in a value, each handing the next list to `set`. */
export function subListEdit(items: readonly unknown[], set: (next: unknown[]) => void) {
  return {
    add: (item: unknown) => set([...items, item]),
    replace: (index: number, item: unknown) => set(replaced(items, index, item)),
    move: (index: number, delta: number) => set(moved(items, index, delta)),
    remove: (index: number) => set(removed(items, index)),
  };
}

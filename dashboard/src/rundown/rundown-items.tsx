import type { ItemState, Rundown, RundownItem } from '@onair/protocol';
import { ConfirmButton } from '../components/confirm-button.js';
import { itemName } from './item-drafts.js';
import { deleteItem, duplicateItem, moveItem } from './rundown-edits.js';
import { focusOn, type Show } from './show-actions.js';

const STATE_WORDS: Record<ItemState, string> = {
  ready: 'READY',
  preview: 'PREVIEW',
  program: 'PROGRAM',
  done: 'DONE',
};

/** Buttons that act without taking the keyboard focus, so Space keeps meaning "play next" after a click. */
export const keepFocus = (e: MouseEvent) => e.preventDefault();

/**
 * The rundown's items in order: label, scene, state badge, and the shared focus highlighted (a click focuses an item
 * for everyone). Operators move, duplicate and delete items from here.
 */
export function RundownItems({ show, rundown, canPlay }: { show: Show; rundown: Rundown; canPlay: boolean }) {
  if (rundown.items.length === 0) return <p class="empty">No items yet: add one from a scene below.</p>;
  return (
    <ol class="rundown-items" aria-label="Rundown items">
      {rundown.items.map((item, index) => (
        <ItemRow key={item.id} show={show} rundown={rundown} item={item} index={index} canPlay={canPlay} />
      ))}
    </ol>
  );
}

function ItemRow({
  show,
  rundown,
  item,
  index,
  canPlay,
}: {
  show: Show;
  rundown: Rundown;
  item: RundownItem;
  index: number;
  canPlay: boolean;
}) {
  const { live, state, drafts } = show;
  const scene = state.scenes[item.sceneId];
  const name = itemName(item, scene);
  const focused = rundown.focus === item.id;
  const unsaved = drafts.drafts.value[item.id] !== undefined;
  return (
    <li
      class={`rundown-item state-${item.state}${focused ? ' focused' : ''}`}
      data-item={item.id}
      data-state={item.state}
      aria-current={focused ? 'true' : undefined}
    >
      <span class="item-index">{index + 1}</span>
      <button
        type="button"
        class="item-focus quiet"
        disabled={!canPlay}
        onMouseDown={keepFocus}
        onClick={() => focusOn(show, item)}
      >
        <span class="visually-hidden">Focus </span>
        <span class="item-name">{name}</span>
        <span class="item-scene">
          {scene?.name ?? 'scene deleted'}
          {unsaved ? ' · unsaved' : ''}
        </span>
      </button>
      <span class={`item-state tally ${item.state}`}>{STATE_WORDS[item.state]}</span>
      {canPlay && (
        <span class="item-actions">
          <button
            type="button"
            class="icon"
            disabled={index === 0}
            onMouseDown={keepFocus}
            onClick={() => void moveItem(live, state, rundown, item, -1, drafts)}
            aria-label={`Move ${name} up`}
          >
            ▲
          </button>
          <button
            type="button"
            class="icon"
            disabled={index === rundown.items.length - 1}
            onMouseDown={keepFocus}
            onClick={() => void moveItem(live, state, rundown, item, 1, drafts)}
            aria-label={`Move ${name} down`}
          >
            ▼
          </button>
          <button
            type="button"
            class="icon"
            onMouseDown={keepFocus}
            onClick={() => duplicateItem(live, state, rundown, item)}
            aria-label={`Duplicate ${name}`}
          >
            ❐
          </button>
          <ConfirmButton
            question={`Delete ${name}?`}
            confirmLabel="Delete"
            onConfirm={() => deleteItem(live, state, rundown, item)}
            label={`Delete ${name}`}
            small
          >
            ✕
          </ConfirmButton>
        </span>
      )}
    </li>
  );
}

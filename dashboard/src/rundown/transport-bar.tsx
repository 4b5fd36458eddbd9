import { requestClearAll } from '../live/clear-all.js';
import { keepFocus } from './rundown-items.js';
import {
  continueOnAir,
  cueFocused,
  focusedItem,
  playNext,
  redo,
  stopRundown,
  take,
  undo,
  updateOnAir,
  type Show,
} from './show-actions.js';

/**
 * The buttons a show is run with, under the monitors. None of them takes the keyboard focus when clicked, so the keys
 * (Space, F5, Esc…) keep working after a click.
 */
export function TransportBar({ show, enabled }: { show: Show; enabled: boolean }) {
  const { live, state, rundown } = show;
  const item = focusedItem(show);
  const itemOnAir = item !== null && state.program.some((e) => e.itemId === item.id);
  const rundownOnAir = rundown?.items.some((i) => i.state === 'program') ?? false;
  const b = (label: string, onClick: () => void, disabled: boolean, extra: Partial<ButtonExtras> = {}) => (
    <button
      type="button"
      class={extra.class ?? ''}
      disabled={!enabled || disabled}
      onMouseDown={keepFocus}
      onClick={onClick}
      aria-keyshortcuts={extra.keys}
      title={extra.title}
    >
      {label}
    </button>
  );
  return (
    <div class="transport" role="toolbar" aria-label="Playout">
      {b('Cue', () => cueFocused(show), item === null, { class: 'cue', title: 'Cue the focused item into preview' })}
      {b('TAKE', () => take(live), state.preview.length === 0, { class: 'take', keys: 'T' })}
      {b('Play next', () => playNext(show), rundown === null || rundown.items.length === 0, {
        class: 'play-next',
        keys: 'Space',
        title: 'The focused item (or the one after it) to air, at once',
      })}
      {b('Continue', () => continueOnAir(live), state.program.length === 0, { keys: 'N' })}
      {b('Stop', () => stopRundown(show), !rundownOnAir, { keys: 'Escape', title: 'The rundown’s items off air' })}
      {b('Update on air', () => void updateOnAir(show), !itemOnAir, {
        keys: 'F5',
        title: itemOnAir
          ? 'The focused item’s edited values to air, at the next frame'
          : 'The focused item is not on air',
      })}
      <span class="transport-gap" />
      {b('Undo', () => undo(live), false, { class: 'quiet', keys: 'Control+Z' })}
      {b('Redo', () => redo(live), false, { class: 'quiet', keys: 'Control+Shift+Z' })}
      {b('Clear all', () => requestClearAll(live), state.program.length === 0, { class: 'danger', keys: 'Shift+X' })}
    </div>
  );
}

interface ButtonExtras {
  class: string;
  keys: string;
  title: string;
}

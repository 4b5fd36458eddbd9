/**
 * The live view's keyboard shortcuts: this one table is what the Keyboard panel and the `?` overlay list, and what
 * docs/dashboard.md documents. The rundown keys follow the habits of SPX-style playout (Space plays next, F5 updates
 * what is on air, Esc takes it off).
 */
export type ShortcutAction =
  | 'playNext'
  | 'focusNext'
  | 'focusPrevious'
  | 'continue'
  | 'updateOnAir'
  | 'stop'
  | 'take'
  | 'next'
  | 'previous'
  | 'cue'
  | 'cut'
  | 'clear'
  | 'clearAll'
  | 'clock'
  | 'undo'
  | 'redo'
  | 'help';

export interface Shortcut {
  keys: string;
  does: string;
  group: 'Rundown' | 'Scenes' | 'Inputs' | 'Channel';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Space', does: 'Play next: the focused rundown item (or the one after it) to air', group: 'Rundown' },
  { keys: '↑ / ↓', does: 'Move the rundown focus up / down', group: 'Rundown' },
  { keys: 'N', does: 'Continue: the next step of the graphics on air', group: 'Rundown' },
  { keys: 'F5', does: 'Update on air: the focused item’s edited values to air', group: 'Rundown' },
  { keys: 'Esc', does: 'Stop: take the rundown’s items on air off air', group: 'Rundown' },
  { keys: 'T', does: 'Take everything cued to air', group: 'Scenes' },
  { keys: 'J / K', does: 'Select the next / previous scene', group: 'Scenes' },
  { keys: 'P', does: 'Cue the selected scene into preview', group: 'Scenes' },
  { keys: 'C', does: 'Cut the selected scene straight to air', group: 'Scenes' },
  { keys: 'X', does: 'Clear the selected scene', group: 'Scenes' },
  { keys: 'Shift + X', does: 'Clear everything off air (asks first)', group: 'Scenes' },
  { keys: '+ / −', does: 'Step the focused number up / down (↑ / ↓ too, while it has focus)', group: 'Inputs' },
  { keys: 'S', does: 'Start / stop the focused clock (or the first clock)', group: 'Inputs' },
  { keys: 'Ctrl + Z', does: 'Undo the last on-air action (⌘ + Z on a Mac)', group: 'Channel' },
  { keys: 'Ctrl + Shift + Z', does: 'Redo what was undone (Ctrl + Y too)', group: 'Channel' },
  { keys: '?', does: 'Show / hide the list of keys', group: 'Channel' },
];

/**
 * The action a key press asks for, or null. Never while typing in a field (Ctrl + Z there is the field's own undo),
 * never with Alt, never for a held key's repeats. Space on a focused button, link or checkbox is that control's own;
 * ↑ / ↓ in a focused list that scrolls (the event feed) scroll it.
 */
export function shortcutOf(e: KeyboardEvent): ShortcutAction | null {
  if (e.altKey || e.repeat || isTyping(e.target)) return null;
  if (e.ctrlKey || e.metaKey) return undoKey(e);
  if (e.key === ' ') return isControl(e.target) ? null : 'playNext';
  if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && isScrollRegion(e.target)) return null;
  return SINGLE_KEYS[e.key === 'X' && !e.shiftKey ? 'x' : e.key] ?? null;
}

const SINGLE_KEYS: Record<string, ShortcutAction> = {
  ArrowDown: 'focusNext',
  ArrowUp: 'focusPrevious',
  n: 'continue',
  N: 'continue',
  F5: 'updateOnAir',
  Escape: 'stop',
  t: 'take',
  T: 'take',
  j: 'next',
  J: 'next',
  k: 'previous',
  K: 'previous',
  p: 'cue',
  P: 'cue',
  c: 'cut',
  C: 'cut',
  x: 'clear',
  X: 'clearAll',
  s: 'clock',
  S: 'clock',
  '?': 'help',
};

function undoKey(e: KeyboardEvent): ShortcutAction | null {
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !e.shiftKey) return 'redo';
  return null;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

function isControl(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (['BUTTON', 'A', 'SUMMARY'].includes(el.tagName) || el.getAttribute('role') === 'button');
}

function isScrollRegion(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && el !== document.body && !isControl(el) && el.scrollHeight > el.clientHeight;
}

/** The live view's keyboard shortcuts, listed on screen from this same table. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'T', does: 'Take everything cued to air' },
  { keys: 'J / K', does: 'Select the next / previous scene' },
  { keys: 'P', does: 'Cue the selected scene into preview' },
  { keys: 'C', does: 'Cut the selected scene straight to air' },
  { keys: 'X', does: 'Clear the selected scene' },
  { keys: 'Shift + X', does: 'Clear everything off air' },
  { keys: '+ / −', does: 'Step the focused number up / down (↑ / ↓ too)' },
  { keys: 'S', does: 'Start / stop the focused clock (or the first clock)' },
];

export type ShortcutAction = 'take' | 'next' | 'previous' | 'cue' | 'cut' | 'clear' | 'clearAll' | 'clock';

/** The action a key press asks for, or null: never while typing in a field, never with Ctrl/Alt/Meta. */
export function shortcutOf(e: KeyboardEvent): ShortcutAction | null {
  if (e.ctrlKey || e.altKey || e.metaKey || e.repeat) return null;
  const target = e.target as HTMLElement | null;
  if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return null;
  switch (e.key) {
    case 't':
    case 'T':
      return 'take';
    case 'j':
    case 'J':
      return 'next';
    case 'k':
    case 'K':
      return 'previous';
    case 'p':
    case 'P':
      return 'cue';
    case 'c':
    case 'C':
      return 'cut';
    case 'x':
      return 'clear';
    case 'X':
      return e.shiftKey ? 'clearAll' : 'clear';
    case 's':
    case 'S':
      return 'clock';
    default:
      return null;
  }
}

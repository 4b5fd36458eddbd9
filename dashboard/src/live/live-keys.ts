/**
 * The live view's keys (the table in shortcuts.ts) bound to what they do. The handler reads the channel, the picked
 * rundown and the selected scene when the key is pressed, never from a stale render. Keys stand still while a dialog
 * is open (its own keys: Esc cancels), except `?`, which closes the key list it opened.
 */
import { useEffect, useRef } from 'preact/hooks';
import { openDialogs } from '../components/modal-dialog.js';
import type { ItemDrafts } from '../rundown/item-drafts.js';
import * as show from '../rundown/show-actions.js';
import { requestClearAll } from './clear-all.js';
import { inputGroups } from './input-controls.js';
import { keysShown } from './keys-overlay.js';
import type { LiveChannel } from './live-socket.js';
import { clear, cue, cut, sortedScenes } from './scene-list.js';
import { toggleClock } from './clock-toggle.js';
import { shortcutOf, type ShortcutAction } from './shortcuts.js';

/** The keys that act on air (those of a role with playout:write). */
type PlayAction = Exclude<ShortcutAction, 'help' | 'next' | 'previous' | 'clock' | 'undo' | 'redo'>;

export interface LiveKeysContext {
  live: LiveChannel;
  rundownId: string | null;
  drafts: ItemDrafts;
  selected: string | null;
  select: (sceneId: string) => void;
  canPlay: boolean;
  canInputs: boolean;
}

export function useLiveKeys(context: LiveKeysContext): void {
  const ref = useRef(context);
  ref.current = context;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutOf(e);
      if (!action) return;
      if (openDialogs.value > 0 && !(action === 'help' && keysShown.value)) return;
      const run = handlerOf(ref.current, action);
      if (!run) return;
      e.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** What a key does for this operator; null when their role may not do it (the key is then left to the browser). */
function handlerOf(ctx: LiveKeysContext, action: ShortcutAction): (() => void) | null {
  const { live, canPlay } = ctx;
  const now = () => show.showNow(live, ctx.rundownId, ctx.drafts);
  switch (action) {
    case 'help':
      return () => (keysShown.value = !keysShown.value);
    case 'next':
    case 'previous':
      return () => selectScene(ctx, action === 'next' ? 1 : -1);
    case 'clock':
      return ctx.canInputs ? () => toggleFirstClock(live) : null;
    case 'undo':
    case 'redo':
      return canPlay ? () => (action === 'undo' ? show.undo(live) : show.redo(live)) : null;
  }
  if (!canPlay) return null;
  const scene = () => sortedScenes(live.state.value).find((s) => s.id === ctx.selected);
  const play: Record<PlayAction, () => void> = {
    playNext: () => show.playNext(now()),
    focusNext: () => show.moveFocus(now(), 'next'),
    focusPrevious: () => show.moveFocus(now(), 'previous'),
    continue: () => show.continueOnAir(live),
    updateOnAir: () => void show.updateOnAir(now()),
    stop: () => show.stopRundown(now()),
    take: () => show.take(live),
    clearAll: () => requestClearAll(live),
    cue: () => withScene(scene(), (s) => void cue(live, s)),
    cut: () => withScene(scene(), (s) => void cut(live, s)),
    clear: () => withScene(scene(), (s) => void clear(live, s)),
  };
  return play[action];
}

function withScene<T>(scene: T | undefined, act: (scene: T) => void): void {
  if (scene) act(scene);
}

function selectScene(ctx: LiveKeysContext, by: 1 | -1): void {
  const scenes = sortedScenes(ctx.live.state.value);
  const index = scenes.findIndex((s) => s.id === ctx.selected);
  const next = scenes[Math.max(0, Math.min(scenes.length - 1, index + by))];
  if (!next) return;
  // Keys pressed faster than a re-render still move on from the latest.
  ctx.selected = next.id;
  ctx.select(next.id);
}

function toggleFirstClock(live: LiveChannel): void {
  const clock = inputGroups(live.state.value)
    .flatMap((g) => g.inputs)
    .find((d) => d.type === 'clock');
  if (clock) toggleClock(live, clock.name, clock.label);
}

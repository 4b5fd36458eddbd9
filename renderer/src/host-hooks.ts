/**
 * What the hosts can call or tell us. CasparCG calls global play/stop/next/update on a template;
 * OBS fires visibility events when `window.obsstudio` exists. The page works without any of them.
 */
import type { InputValue, OutputKind } from '@onair/protocol';
import { parseTemplateData } from './template-data.js';

export interface HostHandlers {
  play(): void;
  stop(): void;
  next(): void;
  update(values: Record<string, InputValue>): void;
  /** The page or source is visible again, or the network is back: redraw clocks, retry at once. */
  wake(): void;
  /** OBS: the source is shown in some view (`visible`), or on program (`active`), or no longer. */
  obs(flags: { visible?: boolean; active?: boolean }): void;
}

interface HostWindow extends Window {
  play?: () => void;
  next?: () => void;
  update?: (data?: unknown) => void;
  obsstudio?: { onVisibilityChange?: unknown; onActiveChange?: unknown } | null;
  /** CasparCG's HTML producer gives every page a global remove() (a template removes itself with it). */
  remove?: unknown;
}

/**
 * True inside a broadcast host that we can tell from a browser: OBS (`window.obsstudio`) or CasparCG (its global
 * `remove()`, or its name in the user agent). Whatever such a page draws may be on air.
 */
export function inBroadcastHost(win: Window): boolean {
  const host = win as HostWindow;
  return host.obsstudio !== undefined || typeof host.remove === 'function' || /casparcg/i.test(win.navigator.userAgent);
}

/**
 * Which host the page runs in (docs/outputs.md, "Kinds"): OBS by `window.obsstudio`, CasparCG as inBroadcastHost
 * tells it, vMix by its name in the user agent; anything else is a browser. Asked before installHostHooks.
 */
export function hostKind(win: Window): OutputKind {
  const host = win as HostWindow;
  if (host.obsstudio !== undefined) return 'obs';
  if (inBroadcastHost(win)) return 'casparcg';
  return /vmix/i.test(win.navigator.userAgent) ? 'vmix' : 'browser';
}

export function installHostHooks(win: Window, handlers: HostHandlers): void {
  installCasparGlobals(win, handlers);
  installVisibility(win, handlers);
}

function installCasparGlobals(win: HostWindow, handlers: HostHandlers): void {
  win.play = () => handlers.play();
  // Shadows Window.prototype.stop (stop loading), as every CasparCG HTML template does.
  win.stop = () => handlers.stop();
  win.next = () => handlers.next();
  win.update = (data?: unknown) => {
    if (typeof data !== 'string') return;
    try {
      handlers.update(parseTemplateData(data));
    } catch (err) {
      console.warn('onair: ignoring unreadable update() data', err);
    }
  };
}

function installVisibility(win: HostWindow, handlers: HostHandlers): void {
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'visible') handlers.wake();
  });
  win.addEventListener('online', () => handlers.wake());
  if (win.obsstudio === undefined) return;
  // OBS: `visible` means shown in any view, `active` means on program. Both are hints only.
  const visible = (value: unknown) => {
    if (typeof value !== 'boolean') return;
    handlers.obs({ visible: value });
    if (value) handlers.wake();
  };
  const active = (value: unknown) => {
    if (typeof value !== 'boolean') return;
    handlers.obs({ active: value });
    if (value) handlers.wake();
  };
  win.addEventListener('obsSourceVisibleChanged', (event) => visible(detailValue(event, 'visible')));
  win.addEventListener('obsSourceActiveChanged', (event) => active(detailValue(event, 'active')));
  // Older OBS calls these instead of firing the events.
  try {
    if (win.obsstudio) Object.assign(win.obsstudio, { onVisibilityChange: visible, onActiveChange: active });
  } catch {
    // A host whose obsstudio object cannot take them fires the events.
  }
}

function detailValue(event: Event, key: string): unknown {
  const detail: unknown = (event as CustomEvent<unknown>).detail;
  return typeof detail === 'object' && detail !== null ? (detail as Record<string, unknown>)[key] : undefined;
}

/**
 * What the hosts can call or tell us. CasparCG calls global play/stop/next/update on a template;
 * OBS fires visibility events when `window.obsstudio` exists. The page works without any of them.
 */
import type { InputValue } from '@onair/protocol';
import { parseTemplateData } from './template-data.js';

export interface HostHandlers {
  play(): void;
  stop(): void;
  next(): void;
  update(values: Record<string, InputValue>): void;
  /** The page or source is visible again, or the network is back: redraw clocks, retry at once. */
  wake(): void;
}

interface HostWindow extends Window {
  play?: () => void;
  next?: () => void;
  update?: (data?: unknown) => void;
  obsstudio?: unknown;
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
  win.addEventListener('obsSourceVisibleChanged', (event) => {
    if (detailFlag(event, 'visible')) handlers.wake();
  });
  win.addEventListener('obsSourceActiveChanged', (event) => {
    if (detailFlag(event, 'active')) handlers.wake();
  });
}

function detailFlag(event: Event, key: string): boolean {
  const detail: unknown = (event as CustomEvent<unknown>).detail;
  return typeof detail === 'object' && detail !== null && (detail as Record<string, unknown>)[key] === true;
}

/**
 * The script of the host page (renderer/build.mjs bundles it into dist/graphic-host-<hash>.html): the page in the
 * sandboxed iframe where one OGraf graphic instance runs, in an opaque origin, away from the output page's token, DOM
 * and storage. It waits for the output page's port, then runs the calls it receives: `load` imports the graphic's
 * module, defines its default export as a custom element, creates it full-frame and awaits its `load()`; the actions
 * are called on the element as they come (the page sends one at a time). Each call is answered with what it resolved
 * to, or what it threw.
 */
import {
  actionResult,
  errorText,
  GRAPHIC_METHODS,
  HOST_HELLO,
  type GraphicMethod,
  type HostCall,
  type HostMessage,
} from './graphic-wire.js';

/** One tag suffices: each instance has a window, and so a custom element registry, of its own. */
const TAG = 'onair-ograf-graphic';
/** Errors of the graphic's own code reported at most, so a graphic failing every frame cannot flood the page. */
const MAX_UNCAUGHT = 5;

type GraphicElement = HTMLElement & Partial<Record<GraphicMethod, (params: unknown) => unknown>>;

let port: MessagePort | null = null;
let element: GraphicElement | null = null;
let uncaught = 0;

function post(msg: HostMessage): void {
  port?.postMessage(msg);
}

/** The graphic's tag: ours, or the one its module already defined it under (a class can have only one). */
function define(Graphic: CustomElementConstructor): string {
  try {
    customElements.define(TAG, Graphic);
    return TAG;
  } catch (err) {
    const registry = customElements as CustomElementRegistry & { getName?(c: CustomElementConstructor): string | null };
    const name = registry.getName?.(Graphic);
    if (name) return name;
    throw err;
  }
}

async function createElement(url: string): Promise<GraphicElement> {
  const module = (await import(url)) as { default?: unknown };
  const Graphic = module.default;
  if (typeof Graphic !== 'function') throw new Error('the module has no default export class');
  const el = document.createElement(define(Graphic as CustomElementConstructor)) as GraphicElement;
  el.style.cssText = 'display:block;position:absolute;left:0;top:0;width:100%;height:100%';
  document.body.appendChild(el);
  return el;
}

async function run(call: HostCall): Promise<unknown> {
  if (call.method === 'load') {
    if (element) throw new Error('already loaded');
    const { url, ...params } = call.params;
    element = await createElement(String(url));
    return element.load?.(params);
  }
  const method = element?.[call.method];
  if (!element || typeof method !== 'function') {
    if (call.method === 'dispose' && !element) return undefined;
    throw new Error(element ? `the graphic has no ${call.method}()` : 'the graphic is not loaded');
  }
  const result = await method.call(element, call.params);
  if (call.method === 'dispose') element.remove();
  return result;
}

function onCall(data: unknown): void {
  const call = data as Partial<HostCall> | null;
  if (typeof call?.id !== 'number' || !GRAPHIC_METHODS.includes(call.method as GraphicMethod)) return;
  const id = call.id;
  run(call as HostCall).then(
    (value) => post({ kind: 'result', id, result: actionResult(value) }),
    (err: unknown) => post({ kind: 'failed', id, message: errorText(err) }),
  );
}

function reportUncaught(err: unknown): void {
  if (uncaught >= MAX_UNCAUGHT) return;
  uncaught += 1;
  post({ kind: 'uncaught', message: errorText(err) });
}

addEventListener('error', (event) => reportUncaught(event.error ?? event.message));
addEventListener('unhandledrejection', (event) => reportUncaught(event.reason));
addEventListener('message', (event: MessageEvent) => {
  // Only the output page (the parent) hands over the port, and only once.
  if (port || event.source !== parent || event.data !== HOST_HELLO || !event.ports[0]) return;
  port = event.ports[0];
  port.onmessage = (e) => onCall(e.data);
});

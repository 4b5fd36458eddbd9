/**
 * What the output page and the host page of one OGraf graphic instance (graphic-host.ts, in its sandboxed iframe)
 * say to each other over the MessagePort the page hands the host once it has loaded. The page sends one call at a
 * time; the host answers each with its id. Everything from the host is untrusted (graphic code shares its window):
 * `readHostMessage` keeps only well-formed fields, with bounded strings.
 */

/** The OGraf methods the page calls; `load` also imports the module and creates the element. */
export type GraphicMethod = 'load' | 'playAction' | 'stopAction' | 'updateAction' | 'customAction' | 'dispose';

export const GRAPHIC_METHODS: readonly GraphicMethod[] = [
  'load',
  'playAction',
  'stopAction',
  'updateAction',
  'customAction',
  'dispose',
];

/** The page's first message to the host window, carrying the port (the only message sent with `postMessage('*')`). */
export const HOST_HELLO = 'onair-graphic-host';

export interface HostCall {
  id: number;
  method: GraphicMethod;
  params: Record<string, unknown>;
}

/** What an action resolved to: `undefined` counts as `{ statusCode: 200 }` (OGraf: ReturnPayload). */
export interface ActionResult {
  statusCode: number;
  statusMessage?: string;
  currentStep?: number;
}

export type HostMessage =
  /** The answer to call `id`: what it resolved to, or what it threw / rejected with. */
  | { kind: 'result'; id: number; result: ActionResult }
  | { kind: 'failed'; id: number; message: string }
  /** An error the graphic's code raised outside any call (an uncaught exception, an unhandled rejection). */
  | { kind: 'uncaught'; message: string };

/** Characters of a message kept from a graphic: it ends up in the output's report (REPORT_LIMITS.message). */
export const MESSAGE_CHARS = 200;

export function clip(text: string): string {
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 1)}…` : text;
}

/** An action's return value as the spec reads it; anything that is not an object counts as 200. */
export function actionResult(value: unknown): ActionResult {
  if (typeof value !== 'object' || value === null) return { statusCode: 200 };
  const v = value as Record<string, unknown>;
  const result: ActionResult = { statusCode: typeof v.statusCode === 'number' ? v.statusCode : 200 };
  if (typeof v.statusMessage === 'string') result.statusMessage = clip(v.statusMessage);
  if (typeof v.currentStep === 'number') result.currentStep = v.currentStep;
  return result;
}

/** What a thrown value says, for a report. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return clip(err.message || err.name);
  try {
    return clip(typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err)));
  } catch {
    return 'unknown error';
  }
}

/** A message from the host, or null when it is not one (graphic code can post anything on the port). */
export function readHostMessage(data: unknown): HostMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  const message = typeof m.message === 'string' ? clip(m.message) : 'unknown error';
  if (m.kind === 'uncaught') return { kind: 'uncaught', message };
  if (typeof m.id !== 'number') return null;
  if (m.kind === 'result') return { kind: 'result', id: m.id, result: actionResult(m.result) };
  if (m.kind === 'failed') return { kind: 'failed', id: m.id, message };
  return null;
}

/**
 * The calls to one graphic instance, one at a time (OGraf lets a graphic receive a call before the previous one
 * settled, but a graphic written against one renderer often breaks then): each call is sent when the one before it
 * has answered or timed out. A call that never settles is given up after its timeout, so one stuck graphic never
 * holds its layer; its late answer is ignored. Nothing here throws: every call ends in an outcome.
 */
import {
  readHostMessage,
  type ActionResult,
  type GraphicMethod,
  type HostCall,
  type HostMessage,
} from './graphic-wire.js';

function outcomeOf(msg: Exclude<HostMessage, { kind: 'uncaught' }>): CallOutcome {
  return msg.kind === 'result'
    ? { ok: true, result: msg.result }
    : { ok: false, reason: 'failed', message: msg.message };
}

export type CallOutcome =
  { ok: true; result: ActionResult } | { ok: false; reason: 'failed' | 'timeout' | 'closed'; message: string };

/** The part of a MessagePort the queue uses. */
export interface CallPort {
  postMessage(message: HostCall): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

export interface GraphicCalls {
  /** Queues a call; resolves with how it ended, at the latest `timeoutMs` after it was sent. */
  call(method: GraphicMethod, params: Record<string, unknown>, timeoutMs: number): Promise<CallOutcome>;
  /** Stops: queued calls end as `closed`, the port is closed. */
  close(): void;
}

export interface CallsDeps {
  /** The host's port, once its page has loaded (a call waits for it, within its timeout). */
  port: Promise<CallPort>;
  /** An error the graphic raised outside any call. */
  onUncaught(message: string): void;
  /** Calls `fn` once after `ms`; returns a function that cancels it. */
  later(fn: () => void, ms: number): () => void;
}

export function createGraphicCalls(deps: CallsDeps): GraphicCalls {
  let nextId = 1;
  let closed = false;
  let tail: Promise<unknown> = Promise.resolve();
  const waiting = new Map<number, (outcome: CallOutcome) => void>();
  let port: CallPort | null = null;
  const portReady = deps.port.then((p) => {
    if (closed) p.close();
    port = p;
    p.onmessage = (event) => receive(event.data);
    return p;
  });

  function receive(data: unknown): void {
    const msg = readHostMessage(data);
    if (!msg) return;
    if (msg.kind === 'uncaught') deps.onUncaught(msg.message);
    else waiting.get(msg.id)?.(outcomeOf(msg));
  }

  function send(method: GraphicMethod, params: Record<string, unknown>, timeoutMs: number): Promise<CallOutcome> {
    if (closed) return Promise.resolve({ ok: false, reason: 'closed', message: 'closed' });
    const id = nextId++;
    return new Promise<CallOutcome>((resolve) => {
      const finish = (outcome: CallOutcome) => {
        waiting.delete(id);
        cancel();
        resolve(outcome);
      };
      const cancel = deps.later(
        () => finish({ ok: false, reason: 'timeout', message: `${method} did not settle within ${timeoutMs} ms` }),
        timeoutMs,
      );
      waiting.set(id, finish);
      // The timeout runs from the moment the call is queued to the host: a host page that never loads times out too.
      void portReady.then((p) => {
        if (waiting.has(id)) p.postMessage({ id, method, params });
      });
    });
  }

  return {
    call(method, params, timeoutMs) {
      const outcome = tail.then(() => send(method, params, timeoutMs));
      tail = outcome;
      return outcome;
    },
    close() {
      if (closed) return;
      closed = true;
      for (const finish of [...waiting.values()]) finish({ ok: false, reason: 'closed', message: 'closed' });
      port?.close();
    },
  };
}

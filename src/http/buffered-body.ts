/**
 * Lightweight Fetch objects for the uWS bridge. A standard Request or Response builds web streams,
 * abort signals and transferables that cost more than the rest of a small API call; Hono needs only the
 * url, method and headers of a request and the text of a JSON response. So the bridge passes a
 * request-shaped object that builds the real Request only if something asks for more, and responses made
 * from a string keep that string so the bridge can send it without draining a stream.
 */

const REQUEST_BODY = Symbol.for('onair.requestBody');
const RESPONSE_TEXT = Symbol.for('onair.responseText');
const decoder = new TextDecoder();

/** A Request-compatible object; the real Request is built lazily (body streams, signal, clone…). */
export function lightRequest(
  url: string,
  method: string,
  headers: Headers,
  body: Uint8Array<ArrayBuffer> | null,
): Request {
  let real: Request | undefined;
  const full = () =>
    (real ??= new Request(url, body && body.length > 0 ? { method, headers, body } : { method, headers }));
  const text = () => (body ? decoder.decode(body) : '');
  const light = {
    url,
    method,
    headers,
    [REQUEST_BODY]: body ?? undefined,
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    arrayBuffer: async () => (body ? body.slice().buffer : new ArrayBuffer(0)),
    get body() {
      return full().body;
    },
    get bodyUsed() {
      return real?.bodyUsed ?? false;
    },
    get signal() {
      return full().signal;
    },
    clone: () => full().clone(),
    blob: () => full().blob(),
    formData: () => full().formData(),
  };
  Object.setPrototypeOf(light, Request.prototype);
  return light as unknown as Request;
}

/** The bytes the transport read for this request, or undefined when it came some other way. */
export function bufferedBody(request: Request): Uint8Array | undefined {
  return (request as unknown as Record<symbol, Uint8Array | undefined>)[REQUEST_BODY];
}

/** A Response made from a string keeps it, and builds its stream only when someone reads `.body`. */
class TextKeepingResponse extends Response {
  constructor(body?: ConstructorParameters<typeof Response>[0], init?: ResponseInit) {
    super(typeof body === 'string' ? null : body, init);
    if (typeof body === 'string') Object.defineProperty(this, RESPONSE_TEXT, { value: body });
  }
}

// The body readers are redefined on the prototype (TypeScript's lib types them as fields, not accessors).
const OriginalResponse = Response;
const base = Response.prototype;
const baseClone = Object.getOwnPropertyDescriptor(base, 'clone')?.value as (this: Response) => Response;
// eslint-disable-next-line @typescript-eslint/unbound-method -- the getter is always invoked with .call(this)
const baseBody = Object.getOwnPropertyDescriptor(base, 'body')?.get as (this: Response) => ReadableStream | null;
const kept = (r: Response) => responseText(r);
const baseMethod = (name: 'text' | 'json' | 'arrayBuffer') =>
  Object.getOwnPropertyDescriptor(base, name)?.value as (this: Response) => Promise<unknown>;
const viaText = <T>(read: (r: Response) => Promise<T>, name: 'text' | 'json' | 'arrayBuffer') =>
  function (this: Response): Promise<T> {
    const text = kept(this);
    return text === undefined ? (baseMethod(name).call(this) as Promise<T>) : read(new OriginalResponse(text));
  };
Object.defineProperties(TextKeepingResponse.prototype, {
  body: {
    get(this: Response) {
      const text = kept(this);
      return text === undefined ? baseBody.call(this) : new OriginalResponse(text).body;
    },
  },
  text: { value: viaText((r) => r.text(), 'text') },
  json: { value: viaText((r) => r.json(), 'json') },
  arrayBuffer: { value: viaText((r) => r.arrayBuffer(), 'arrayBuffer') },
  clone: {
    value(this: Response) {
      const text = kept(this);
      return text === undefined ? baseClone.call(this) : new TextKeepingResponse(text, this);
    },
  },
});

/** Makes `new Response(string)` (as Hono's c.json / c.text / c.html do) keep its text. Idempotent. */
export function keepResponseText(): void {
  if (globalThis.Response !== TextKeepingResponse) globalThis.Response = TextKeepingResponse;
}

export function responseText(response: Response): string | undefined {
  return (response as unknown as Record<symbol, string | undefined>)[RESPONSE_TEXT];
}

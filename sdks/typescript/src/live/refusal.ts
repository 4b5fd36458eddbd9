/** Why the server refused a live connection, or closed one for good, as the OnairApiError it stands for. */
import { OnairApiError } from '../errors.js';
import { toApiError } from '../http.js';
import { CloseCode } from '../generated/protocol.js';
import type { NodeStyleResponse } from './socket.js';

/** Why the server closed a connection for good (4000–4099), as an error carrying the matching API code. */
export function terminalCloseError(code: number, reason: string): OnairApiError {
  const detail = `The server closed the connection with ${code}${reason ? ` (${reason})` : ''}: do not reconnect with the same credentials.`;
  if (code === CloseCode.channelDeleted)
    return OnairApiError.fromSocket('not_found', `The channel was deleted. ${detail}`);
  if (code === CloseCode.unauthorized || code === CloseCode.tokenRotated)
    return OnairApiError.fromSocket('unauthorized', detail);
  return OnairApiError.fromSocket('forbidden', detail);
}

/** The problem document of a refused upgrade (the `ws` package lets us read it). */
export function readRefusal(res: NodeStyleResponse): Promise<OnairApiError> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const encoder = new TextEncoder();
    res.on('data', (chunk) => chunks.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk));
    res.on('error', () => reject(new Error('the refusal could not be read')));
    res.on('end', () => {
      const size = chunks.reduce((n, c) => n + c.byteLength, 0);
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.byteLength;
      }
      const text = new TextDecoder().decode(bytes);
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      const status = res.statusCode ?? 500;
      const response = new Response(null, { status: status < 200 || status > 599 ? 500 : status, headers });
      resolve(toApiError(response, text));
    });
  });
}

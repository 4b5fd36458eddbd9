/**
 * The entry points an operation is reached through, for the parity tests (docs/api.md, "The order of checks"): a
 * request through the real port (the transport answers PATCH …/inputs itself, on its fast route), the same request
 * straight into the Hono app, the WebSocket op of the same name, and a post to an incoming hook's URL. Each gives an
 * Answer: what a caller learns (status, code, detail), whichever way it asked.
 */
import { ERROR_CATALOGUE } from '@onair/protocol';
import { RenderClient, UpgradeRefused } from './ws-client.js';

export interface Answer {
  status: number;
  code?: string;
  detail?: string;
  /** The permission a 403 names. */
  permission?: string;
}

/** Who asks: an API key, or a dashboard session (its cookie, sent from the server's own page as a browser would). */
export type Credential = { key: string } | { cookie: string };

/** A body sent as these bytes with this Content-Type, instead of JSON-encoded. */
export class Raw {
  constructor(
    readonly text: string,
    readonly type = 'application/json',
  ) {}
}

export interface ParityServer {
  url: string;
  handle: { fetchApi(request: Request): Promise<Response> };
}

/** Sends `method path` (from `/v1`) with `body` (JSON-encoded unless Raw; none when undefined). */
export type Send = (cred: Credential, method: string, path: string, body?: unknown) => Promise<Answer>;

export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  if (res.status < 400) return { status: res.status };
  const problem = JSON.parse(text) as Record<string, unknown>;
  const answer: Answer = { status: res.status, code: problem.code as string, detail: problem.detail as string };
  if (typeof problem.permission === 'string') answer.permission = problem.permission;
  return answer;
}

function requestInit(server: ParityServer, cred: Credential, method: string, body: unknown, host: boolean) {
  const headers: Record<string, string> = {};
  if ('key' in cred) headers.authorization = `Bearer ${cred.key}`;
  else {
    headers.cookie = cred.cookie;
    headers.origin = server.url;
    // A Request built by hand carries no Host: the same-origin check compares Origin with it.
    if (host) headers.host = new URL(server.url).host;
  }
  let payload: string | undefined;
  if (body instanceof Raw) {
    payload = body.text;
    headers['content-type'] = body.type;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  return { method, headers, body: payload, signal: AbortSignal.timeout(10_000) };
}

/** Through the real port and the transport. */
export function viaPort(server: ParityServer): Send {
  return async (cred, method, path, body) =>
    answerOf(await fetch(`${server.url}${path}`, requestInit(server, cred, method, body, false)));
}

/** Straight into the Hono app, past the transport (and past the fast route). */
export function viaHono(server: ParityServer): Send {
  return async (cred, method, path, body) =>
    answerOf(
      await server.handle.fetchApi(new Request(`${server.url}${path}`, requestInit(server, cred, method, body, true))),
    );
}

/** A post to an incoming hook's URL: the token is the credential. */
export async function hookPost(server: ParityServer, token: string, body: unknown): Promise<Answer> {
  return answerOf(
    await fetch(`${server.url}/v1/hooks/${token}`, requestInit(server, { key: '' }, 'POST', body, false)),
  );
}

/** The answer of a refused WebSocket upgrade, or the error rethrown. */
export function refusalOf(err: unknown): Answer {
  if (!(err instanceof UpgradeRefused)) throw err;
  const problem = JSON.parse(err.body) as { code: string; detail: string; permission?: string };
  const answer: Answer = { status: err.status, code: problem.code, detail: problem.detail };
  if (problem.permission !== undefined) answer.permission = problem.permission;
  return answer;
}

/**
 * WebSocket ops, one connection per credential and channel, kept open between calls. A connection the upgrade
 * refuses answers with the refusal: a socket belongs to one channel, so a channel the caller may not see is
 * refused there, and that is this entry point's answer.
 */
export class Sockets {
  private readonly open = new Map<string, Promise<RenderClient | Answer>>();
  private readonly clients: RenderClient[] = [];
  private sent = 0;

  constructor(private readonly server: ParityServer) {}

  /** Sends the op (`{ op, …fields }`) and answers with its ack or error, as the REST route's status would say it. */
  async op(cred: Credential, channel: string, message: Record<string, unknown>): Promise<Answer> {
    const client = await this.connection(cred, channel);
    if (!(client instanceof RenderClient)) return client;
    const id = `op-${++this.sent}`;
    client.send({ ...message, id });
    const reply = await client.reply(id, 10_000);
    if (reply.type === 'ack') return { status: 200 };
    return {
      status: ERROR_CATALOGUE[reply.code as keyof typeof ERROR_CATALOGUE].status,
      code: reply.code,
      detail: reply.detail,
    };
  }

  /** The connection's own answer to the upgrade: 101 as 200, or the refusal. */
  async upgrade(cred: Credential, channel: string): Promise<Answer> {
    const client = await this.connection(cred, channel);
    return client instanceof RenderClient ? { status: 200 } : client;
  }

  closeAll(): void {
    for (const client of this.clients.splice(0)) client.close();
    this.open.clear();
  }

  private connection(cred: Credential, channel: string): Promise<RenderClient | Answer> {
    const id = `${'key' in cred ? cred.key : cred.cookie}\n${channel}`;
    let pending = this.open.get(id);
    if (!pending) {
      pending = this.connect(cred, channel);
      this.open.set(id, pending);
    }
    return pending;
  }

  private async connect(cred: Credential, channel: string): Promise<RenderClient | Answer> {
    const auth = 'key' in cred ? { key: cred.key } : { headers: { cookie: cred.cookie, origin: this.server.url } };
    let client: RenderClient;
    try {
      client = await RenderClient.connect(this.server.url, channel, auth);
    } catch (err) {
      return refusalOf(err);
    }
    this.clients.push(client);
    await client.next((m) => m.type === 'snapshot', { timeoutMs: 10_000 });
    return client;
  }
}

/**
 * The WebSocket message for a live op's REST request: `/inputs` → patch, `/preview` → preview (cue), `/program` →
 * program (cut), `/take`, `/clear`, `/triggers/:name` → trigger, `/clocks/:name` → clock; the body's fields beside.
 */
export function socketMessage(path: string, body: unknown): Record<string, unknown> {
  const [, route = '', name] = /^\/(\w+)(?:\/(\w+))?$/.exec(path) ?? [];
  if (route === 'inputs') return { op: 'patch', inputs: body };
  const op = ({ triggers: 'trigger', clocks: 'clock' } as Record<string, string>)[route] ?? route;
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : { body };
  return { op, ...(name ? { name } : {}), ...fields };
}

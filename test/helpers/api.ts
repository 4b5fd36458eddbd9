/**
 * A small fetch wrapper for the REST API, the contract's shapes (docs/api.md, written out here rather than
 * imported from src/ so the tests check the contract, not the implementation), and common fixtures.
 */

export type InputValue = number | string | boolean | null;

export interface Channel {
  id: string;
  name: string;
  fps: number;
  width: number;
  height: number;
  outputUrl: string;
  previewUrl: string;
  createdAt: string;
  updatedAt: string;
}

export interface Scene {
  id: string;
  channelId: string;
  name: string;
  /** 0–99: each bus holds one scene per layer. */
  layer: number;
  inputs: { name: string; type: string; label: string; default: InputValue }[];
  /** The names of the scene's triggers. */
  triggers: string[];
  definition: unknown;
}

export interface ClockState {
  running: boolean;
  ms: number;
  at: number;
}

export interface Event {
  id: string;
  type: string;
  orgId: string;
  channelId: string;
  createdAt: string;
  data: Record<string, unknown> & { source: string; actor: { type: string; id: string; name: string } };
}

export interface State {
  channelId: string;
  frame: number;
  serverTime: string;
  fps: number;
  /** One entry per layer, sorted by layer. */
  program: {
    sceneId: string;
    layer: number;
    since: string;
    itemId: string | null;
    values: Record<string, InputValue>;
  }[];
  preview: { sceneId: string; layer: number; itemId: string | null; values: Record<string, InputValue> }[];
  inputs: Record<string, InputValue>;
  clocks: Record<string, ClockState>;
  updatedAt: string;
}

export interface PatchResult {
  channelId: string;
  frame: number;
  inputs: Record<string, InputValue>;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
  [extra: string]: unknown;
}

export interface List<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** Sent as is instead of JSON-encoding `body` (malformed JSON, huge bodies). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Leave out the Authorization header. */
  noAuth?: boolean;
}

/** `T` is what the caller expects the body to be; nothing checks it at run time. */
export type Api = <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options?: CallOptions,
) => Promise<ApiResponse<T>>;

/** Paths are relative to the server root (`/v1/channels`, `/healthz`). */
export function api(baseUrl: string | (() => string), key: string): Api {
  const base = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  return async <T>(method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const headers: Record<string, string> = {};
    if (!options.noAuth) headers.authorization = `Bearer ${key}`;
    const payload = body !== undefined ? JSON.stringify(body) : options.raw;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const sent = payload instanceof Uint8Array ? (payload as Uint8Array<ArrayBuffer>) : payload;
    Object.assign(headers, options.headers);
    // Bounded, so a request the server never answers fails the test instead of hanging it.
    const signal = AbortSignal.timeout(10_000);
    const res = await fetch(`${base()}${path}`, { method, headers, body: sent, signal });
    const text = await res.text();
    const isJson = /json/.test(res.headers.get('content-type') ?? '') && text.length > 0;
    return { status: res.status, headers: res.headers, body: (isJson ? JSON.parse(text) : text) as T };
  };
}

/** The body, or a throw carrying the server's answer when the status is not the expected one. */
export function expectStatus<T>(res: ApiResponse<T>, status: number): T {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface ScoreboardChannel {
  channelId: string;
  sceneId: string;
  /** The output token from the channel's outputUrl. */
  token: string;
}

export function tokenOf(outputUrl: string): string {
  const token = new URL(outputUrl).searchParams.get('token');
  if (!token) throw new Error(`no token in ${outputUrl}`);
  return token;
}

export async function addScoreboard(call: Api, channelId: string, name = 'Score'): Promise<Scene> {
  return expectStatus(
    await call<Scene>('POST', `/v1/channels/${channelId}/scenes`, { name, template: 'scoreboard' }),
    201,
  );
}

/** POST a channel, a scoreboard scene on it, and put the scene on air. */
export async function createChannelWithScoreboard(call: Api, name = 'Main'): Promise<ScoreboardChannel> {
  const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name }), 201);
  const scene = await addScoreboard(call, channel.id);
  expectStatus(await call('POST', `/v1/channels/${channel.id}/program`, { sceneId: scene.id }), 200);
  return { channelId: channel.id, sceneId: scene.id, token: tokenOf(channel.outputUrl) };
}

export async function getState(call: Api, channelId: string): Promise<State> {
  return expectStatus(await call<State>('GET', `/v1/channels/${channelId}/state`), 200);
}

export async function patchInputs(
  call: Api,
  channelId: string,
  inputs: Record<string, InputValue>,
): Promise<PatchResult> {
  return expectStatus(await call<PatchResult>('PATCH', `/v1/channels/${channelId}/inputs`, inputs), 200);
}

/** State without serverTime (which moves on its own): equal before and after means nothing changed. */
export function stableState(state: State): Omit<State, 'serverTime'> {
  const copy: Partial<State> = { ...state };
  delete copy.serverTime;
  return copy as Omit<State, 'serverTime'>;
}

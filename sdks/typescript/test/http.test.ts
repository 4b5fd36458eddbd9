/**
 * The HTTP layer against a scripted fetch (no server): what is sent, how answers become errors, what is retried
 * and what is not. The same behaviour against the real server is in rest.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OnairApiError, OnairClient, OnairTransportError, USER_AGENT, type FetchLike } from '../src/index.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that answers from a script, one answer per call, and records the calls. */
function scripted(...answers: (Response | (() => Response) | Error)[]): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const next = answers.shift();
    if (next === undefined) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const problem = (status: number, code: string, headers: Record<string, string> = {}, extra: object = {}) =>
  new Response(
    JSON.stringify({
      type: `https://onair.dev/errors/${code}`,
      title: code,
      status,
      code,
      detail: `${code}!`,
      ...extra,
    }),
    { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_test', ...headers } },
  );

const channel = { id: 'ch_1', name: 'Main' };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('requests', () => {
  it('accepts the base URL with or without a trailing slash and /v1', async () => {
    for (const baseUrl of [
      'http://onair.test:8080',
      'http://onair.test:8080/',
      'http://onair.test:8080/v1',
      'http://onair.test:8080/v1/',
    ]) {
      const { fetch, calls } = scripted(json(200, channel));
      await new OnairClient({ baseUrl, apiKey: 'onair_sk_x', fetch }).channels.get('ch_1');
      expect(calls[0]!.url).toBe('http://onair.test:8080/v1/channels/ch_1');
    }
  });

  it('defaults to http://localhost:8080 and refuses a base URL that is not http(s)', async () => {
    const { fetch, calls } = scripted(json(200, { data: [], nextCursor: null }));
    await new OnairClient({ apiKey: 'k', fetch }).templates.list();
    expect(calls[0]!.url).toBe('http://localhost:8080/v1/templates');
    expect(() => new OnairClient({ baseUrl: 'ftp://x' })).toThrow(TypeError);
  });

  it('sends the key, User-Agent, Accept, and JSON bodies with their content type', async () => {
    const { fetch, calls } = scripted(
      json(200, { channelId: 'ch_1', frame: 1, inputs: { scoreA: 3 } }),
      json(200, channel),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'onair_sk_abc', fetch });
    await client.channels.patchInputs('ch_1', { scoreA: 3 });
    expect(calls[0]).toMatchObject({
      url: 'http://x/v1/channels/ch_1/inputs',
      method: 'PATCH',
      body: '{"scoreA":3}',
      headers: {
        Authorization: 'Bearer onair_sk_abc',
        'User-Agent': USER_AGENT,
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
    });
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(USER_AGENT).toBe(`onair-typescript/${pkg.version}`);
    await client.channels.get('ch_1');
    expect(calls[1]!.headers['Content-Type']).toBeUndefined();
    expect(calls[1]!.body).toBeUndefined();
  });

  it('falls back to ONAIR_API_KEY', async () => {
    vi.stubEnv('ONAIR_API_KEY', 'onair_sk_from_env');
    const { fetch, calls } = scripted(json(200, channel));
    await new OnairClient({ baseUrl: 'http://x', fetch }).channels.get('ch_1');
    expect(calls[0]!.headers.Authorization).toBe('Bearer onair_sk_from_env');
  });

  it('escapes path segments and passes list parameters as the query', async () => {
    const { fetch, calls } = scripted(
      json(200, { data: [], nextCursor: null }),
      json(200, { data: [], nextCursor: null }),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch });
    await client.scenes.list('ch/1', { limit: 2, cursor: 'sc_9' });
    expect(calls[0]!.url).toBe('http://x/v1/channels/ch%2F1/scenes?limit=2&cursor=sc_9');
    await client.events.list({ channelId: 'ch_1', since: new Date('2026-01-02T03:04:05.000Z') });
    expect(calls[1]!.url).toBe('http://x/v1/events?channelId=ch_1&since=2026-01-02T03%3A04%3A05.000Z');
  });

  it('answers undefined for a 204', async () => {
    const { fetch } = scripted(new Response(null, { status: 204 }));
    await expect(new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels.delete('ch_1')).resolves.toBe(
      undefined,
    );
  });
});

describe('Idempotency-Key', () => {
  it('is sent on creates, one random UUID per call, the same on its retries', async () => {
    const { fetch, calls } = scripted(
      problem(429, 'rate_limited', { 'retry-after': '1' }),
      json(201, channel),
      json(201, channel),
      json(200, channel),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch });
    await client.channels.create({ name: 'A' });
    await client.channels.create({ name: 'A' });
    await client.channels.get('ch_1');
    const keys = calls.map((c) => c.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBeUndefined();
  });

  it('is the caller’s when given, and absent on a dry run', async () => {
    const { fetch, calls } = scripted(json(201, { id: 'sc_1' }), json(200, { id: 'sc_dryrun' }));
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch });
    await client.scenes.create('ch_1', { name: 'S', template: 'scoreboard' }, { idempotencyKey: 'mine-1' });
    await client.scenes.create('ch_1', { name: 'S', template: 'scoreboard' }, { dryRun: true });
    expect(calls[0]!.headers['Idempotency-Key']).toBe('mine-1');
    expect(calls[1]!.headers['Idempotency-Key']).toBeUndefined();
    expect(calls[1]!.url).toBe('http://x/v1/channels/ch_1/scenes?dryRun=1');
  });

  it('is sent by every create route', async () => {
    const { fetch, calls } = scripted(...Array.from({ length: 7 }, () => json(201, {})));
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch });
    await client.channels.rotateOutputToken('ch_1');
    await client.keys.create({ name: 'k', permissions: ['channels:read'] });
    await client.webhooks.create({ url: 'https://example.com/h' });
    await client.webhooks.ping('wh_1');
    await client.incomingHooks.create('ch_1', { name: 'h' });
    await client.sources.create('ch_1', { type: 'json_url', url: 'https://example.com/feed.json' });
    await client.scenes.create('ch_1', { name: 's', template: 'scoreboard' });
    for (const call of calls) expect(call.headers['Idempotency-Key'], call.url).toBeTruthy();
  });
});

describe('errors', () => {
  it('turns a problem document into OnairApiError with every field', async () => {
    const { fetch } = scripted(
      problem(400, 'invalid_request', {}, { errors: [{ path: 'name', message: 'required' }], extra: 1 }),
    );
    const error = await new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels
      .create({ name: '' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      title: 'invalid_request',
      detail: 'invalid_request!',
      errors: [{ path: 'name', message: 'required' }],
      requestId: 'req_test',
      retryAfter: undefined,
      problem: { extra: 1 },
    });
  });

  it('gives a non-JSON error body the code http_<status>', async () => {
    const { fetch } = scripted(
      new Response('<html>Bad gateway</html>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'content-type': 'text/html' },
      }),
    );
    const error = await new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels
      .get('ch_1')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'OnairApiError', status: 502, code: 'http_502', title: 'Bad Gateway' });
    expect((error as OnairApiError).detail).toContain('Bad gateway');
  });

  it('reports a refused connection as OnairTransportError network, never retried', async () => {
    const { fetch, calls } = scripted(new TypeError('fetch failed'), json(200, channel));
    const error = await new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels
      .get('ch_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OnairTransportError);
    expect((error as OnairTransportError).code).toBe('network');
    expect(calls).toHaveLength(1);
  });

  it('times a request out with OnairTransportError timeout', async () => {
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch, timeoutMs: 50 });
    await expect(client.channels.get('ch_1')).rejects.toMatchObject({ name: 'OnairTransportError', code: 'timeout' });
  });

  it('stops at the caller’s AbortSignal with OnairTransportError aborted', async () => {
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const controller = new AbortController();
    const call = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels.get('ch_1', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'OnairTransportError', code: 'aborted' });
  });
});

describe('retries', () => {
  it('waits Retry-After on 429 and retries, up to maxRetries', async () => {
    const { fetch, calls } = scripted(
      problem(429, 'rate_limited', { 'retry-after': '1' }),
      problem(429, 'rate_limited', { 'retry-after': '1' }),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch, maxRetries: 1 });
    const started = Date.now();
    const error = await client.channels.patchInputs('ch_1', { a: 1 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls).toHaveLength(2);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 1 });
  });

  it('retries a 503 that carries Retry-After (and a 429 without one after 1 s)', async () => {
    const { fetch, calls } = scripted(
      problem(503, 'unavailable', { 'retry-after': '0' }),
      problem(429, 'rate_limited'),
      json(200, channel),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch });
    await expect(client.channels.get('ch_1')).resolves.toEqual(channel);
    expect(calls).toHaveLength(3);
  });

  it('does not retry a 503 without Retry-After, nor a 500', async () => {
    for (const answer of [problem(503, 'unavailable'), problem(500, 'internal')]) {
      const { fetch, calls } = scripted(answer, json(200, channel));
      await expect(new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels.get('ch_1')).rejects.toThrow(
        OnairApiError,
      );
      expect(calls).toHaveLength(1);
    }
  });

  it('fails at once, without sleeping, when Retry-After exceeds maxRetryWaitMs', async () => {
    const { fetch, calls } = scripted(problem(429, 'rate_limited', { 'retry-after': '40' }), json(200, channel));
    const started = Date.now();
    const error = await new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch }).channels
      .get('ch_1')
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfter: 40 });
    expect(calls).toHaveLength(1);
  });

  it('does not retry at all with maxRetries 0', async () => {
    const { fetch, calls } = scripted(problem(429, 'rate_limited', { 'retry-after': '1' }), json(200, channel));
    await expect(
      new OnairClient({ baseUrl: 'http://x', apiKey: 'k', fetch, maxRetries: 0 }).channels.get('ch_1'),
    ).rejects.toMatchObject({ code: 'rate_limited' });
    expect(calls).toHaveLength(1);
  });
});

describe('hooks.post', () => {
  it('posts the exact bytes it signs, without the API key, to a URL or a token', async () => {
    const { fetch, calls } = scripted(
      json(200, { frame: 1, applied: {}, ignored: [] }),
      json(200, { frame: null, applied: {}, ignored: [], dryRun: true }),
    );
    const client = new OnairClient({ baseUrl: 'http://x', apiKey: 'onair_sk_secret', fetch });
    await client.hooks.post('https://hooks.example/v1/hooks/TOKEN', { home_score: 3 }, 'whsec_1');
    await client.hooks.post('TOKEN', '{"a":1}', { dryRun: true });
    expect(calls[0]!.url).toBe('https://hooks.example/v1/hooks/TOKEN');
    expect(calls[0]!.body).toBe('{"home_score":3}');
    expect(calls[0]!.headers.Authorization).toBeUndefined();
    expect(calls[0]!.headers['X-Service-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(calls[0]!.headers['X-Service-Timestamp']).toMatch(/^\d+$/);
    expect(calls[1]!.url).toBe('http://x/v1/hooks/TOKEN?dryRun=1');
    expect(calls[1]!.body).toBe('{"a":1}');
    expect(calls[1]!.headers['X-Service-Signature']).toBeUndefined();
  });
});

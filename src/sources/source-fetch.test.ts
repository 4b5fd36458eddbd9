import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answer, redirectTo, startFeedServer, type FeedServer } from '../../test/helpers/feed-server.js';
import { splitDispatcher } from '../../test/helpers/split-dispatcher.js';
import { testCertificate } from '../../test/helpers/webhook-receiver.js';
import { createGuardedAgent, REFUSAL, type Resolve } from '../webhooks/endpoint-guard/index.js';
import { fetchSource, type FetchOptions, type FetchRequest } from './source-fetch.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const CSV_TYPE = { 'content-type': 'text/csv' };
const GAME = '{"home":{"score":2},"clock":"12:00"}';

let ca: string;
let feed: FeedServer;
let secure: FeedServer;
let dispatchers: Dispatcher[];

beforeAll(async () => {
  ca = (await testCertificate()).cert;
});

beforeEach(async () => {
  feed = await startFeedServer();
  secure = await startFeedServer({ tls: true });
  dispatchers = [];
});

afterEach(async () => {
  await Promise.all(dispatchers.map((d) => d.close()));
  await Promise.all([feed.close(), secure.close()]);
});

function agent(allowPrivate: boolean, resolve?: Resolve): Dispatcher {
  const created = createGuardedAgent({ allowPrivate, resolve, connectTimeoutMs: 5_000, tls: { ca } });
  dispatchers.push(created);
  return created;
}

function options(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return { agent: agent(true), timeoutMs: 10_000, maxBytes: 1024 * 1024, userAgent: 'onair-test', ...overrides };
}

const json = (url: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({ url, type: 'json_url', ...extra });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('fetchSource: answers read', () => {
  it('reads JSON over HTTPS with its hash and validators', async () => {
    secure.route(
      '/game.json',
      answer(GAME, { ...JSON_TYPE, etag: '"v1"', 'last-modified': 'Wed, 01 Jan 2025 10:00:00 GMT' }),
    );
    const result = await fetchSource(json(`${secure.origin}/game.json`), options());
    expect(result).toMatchObject({
      status: 200,
      notModified: false,
      body: GAME,
      sha256: sha256(GAME),
      etag: '"v1"',
      lastModified: 'Wed, 01 Jan 2025 10:00:00 GMT',
      bytes: Buffer.byteLength(GAME),
      finalUrl: `${secure.origin}/game.json`,
      error: null,
    });
    expect(result.ms).toBeGreaterThan(0);
    expect(secure.requests[0]?.headers['user-agent']).toBe('onair-test');
  });

  it('reads CSV over HTTP, and takes an answer with no content type', async () => {
    feed.route('/results.csv', answer('team,pts\nLions,3\n', CSV_TYPE));
    feed.route('/bare.csv', answer('team,pts\n'));
    const csv = await fetchSource({ url: `${feed.origin}/results.csv`, type: 'csv_url' }, options());
    expect(csv).toMatchObject({ status: 200, body: 'team,pts\nLions,3\n', error: null });
    const bare = await fetchSource({ url: `${feed.origin}/bare.csv`, type: 'csv_url' }, options());
    expect(bare).toMatchObject({ body: 'team,pts\n', error: null });
  });

  it('strips a byte order mark and refuses invalid UTF-8', async () => {
    feed.route('/bom.csv', answer(Buffer.from('\uFEFFteam,pts\n', 'utf8'), CSV_TYPE));
    feed.route('/latin1.csv', answer(Buffer.from([0x74, 0x65, 0x61, 0x6d, 0x0a, 0xe9, 0x0a]), CSV_TYPE));
    const bom = await fetchSource({ url: `${feed.origin}/bom.csv`, type: 'csv_url' }, options());
    expect(bom.body).toBe('team,pts\n');
    const bad = await fetchSource({ url: `${feed.origin}/latin1.csv`, type: 'csv_url' }, options());
    expect(bad).toMatchObject({ status: 200, body: null, sha256: null, error: 'the answer is not valid UTF-8' });
  });
});

describe('fetchSource: conditional GET', () => {
  it('sends the ETag back and reports a 304 as not modified, keeping the validators', async () => {
    feed.route('/game.json', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
      else res.writeHead(200, { ...JSON_TYPE, etag: '"v1"' }).end(GAME);
    });
    const first = await fetchSource(json(`${feed.origin}/game.json`), options());
    expect(first.etag).toBe('"v1"');
    const again = await fetchSource(json(`${feed.origin}/game.json`, { etag: first.etag }), options());
    expect(again).toMatchObject({
      status: 304,
      notModified: true,
      body: null,
      sha256: null,
      etag: '"v1"',
      error: null,
    });
    expect(feed.requests.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
  });

  it('sends If-Modified-Since with the last Last-Modified', async () => {
    const stamp = 'Wed, 01 Jan 2025 10:00:00 GMT';
    feed.route('/game.json', (req, res) => {
      if (req.headers['if-modified-since'] === stamp) res.writeHead(304).end();
      else res.writeHead(200, { ...JSON_TYPE, 'last-modified': stamp }).end(GAME);
    });
    const first = await fetchSource(json(`${feed.origin}/game.json`), options());
    const again = await fetchSource(json(`${feed.origin}/game.json`, { lastModified: first.lastModified }), options());
    expect(again).toMatchObject({ notModified: true, lastModified: stamp });
  });

  it('takes a 304 only as an answer to a conditional GET', async () => {
    feed.route('/odd.json', answer('', {}, 304));
    const result = await fetchSource(json(`${feed.origin}/odd.json`), options());
    expect(result).toMatchObject({ status: 304, notModified: false, error: 'HTTP 304' });
  });
});

describe('fetchSource: redirects', () => {
  function chain(hops: number): string {
    for (let i = 1; i <= hops; i++) feed.route(`/hop${i}`, redirectTo(i === hops ? '/game.json' : `/hop${i + 1}`));
    feed.route('/game.json', answer(GAME, JSON_TYPE));
    return `${feed.origin}/hop1`;
  }

  it('follows three redirects, sending the validators on every hop', async () => {
    const result = await fetchSource(json(chain(3), { etag: '"old"' }), options());
    expect(result).toMatchObject({ status: 200, body: GAME, finalUrl: `${feed.origin}/game.json`, error: null });
    expect(feed.requests.map((r) => [r.path, r.headers['if-none-match']])).toEqual([
      ['/hop1', '"old"'],
      ['/hop2', '"old"'],
      ['/hop3', '"old"'],
      ['/game.json', '"old"'],
    ]);
  });

  it('refuses a fourth redirect without following it', async () => {
    const result = await fetchSource(json(chain(4)), options());
    expect(result).toMatchObject({ status: 302, body: null, error: 'more than 3 redirects' });
    expect(feed.requests.map((r) => r.path)).toEqual(['/hop1', '/hop2', '/hop3', '/hop4']);
  });

  it('checks each hop against the form rules: no other scheme, no user name, a Location needed', async () => {
    feed.route('/to-file', redirectTo('file:///etc/passwd'));
    feed.route('/to-user', redirectTo(`http://user:pw@127.0.0.1:${feed.port}/game.json`));
    feed.route('/nowhere', answer('', {}, 301));
    const reasons = [];
    for (const path of ['/to-file', '/to-user', '/nowhere']) {
      reasons.push((await fetchSource(json(`${feed.origin}${path}`), options())).error);
    }
    expect(reasons).toEqual([
      `redirect refused: ${REFUSAL.httpOrHttps}`,
      `redirect refused: ${REFUSAL.credentials}`,
      'HTTP 301 without a Location',
    ]);
  });

  it('refuses a redirect to a private address at fetch when private targets are not allowed', async () => {
    const internal: Resolve = async () => [{ address: '10.1.2.3', family: 4 }];
    const dispatcher = splitDispatcher(agent(false, internal), agent(true), [feed.origin]);
    secure.route('/secret.json', answer(GAME, JSON_TYPE));
    const targets = [
      `https://127.0.0.1:${secure.port}/secret.json`,
      'https://10.0.0.8/x',
      'https://intranet.example/x',
    ];
    const errors = [];
    for (const [i, target] of targets.entries()) {
      feed.route(`/out${i}`, redirectTo(target));
      errors.push((await fetchSource(json(`${feed.origin}/out${i}`), options({ agent: dispatcher }))).error);
    }
    expect(errors).toEqual(targets.map(() => `redirect refused: ${REFUSAL.host}`));
    expect(secure.connections).toBe(0);
    // The same address as the first URL is refused too.
    const direct = await fetchSource(
      json(`https://127.0.0.1:${secure.port}/secret.json`),
      options({ agent: agent(false) }),
    );
    expect(direct.error).toBe(`refused: ${REFUSAL.host}`);
    expect(secure.connections).toBe(0);
  });
});

describe('fetchSource: answers refused', () => {
  it('refuses an HTML answer (a sign-in page, an unpublished sheet) without reading it', async () => {
    feed.route('/sheet', answer('<html>Sign in</html>', { 'content-type': 'text/html; charset=utf-8' }));
    const result = await fetchSource({ url: `${feed.origin}/sheet`, type: 'csv_url' }, options());
    expect(result.status).toBe(200);
    expect(result.body).toBeNull();
    expect(result.error).toMatch(/^answered HTML, not CSV \(a sign-in page/);
  });

  it('refuses a content type the source type cannot be, naming it only when it looks like one', async () => {
    feed.route('/png', answer('x', { 'content-type': 'image/png' }));
    feed.route('/odd', answer('x', { 'content-type': 'text/<script>' }));
    feed.route('/problem', answer('{}', { 'content-type': 'application/problem+json' }));
    const error = async (path: string) => (await fetchSource(json(`${feed.origin}${path}`), options())).error;
    expect(await error('/png')).toBe('answered image/png, not JSON');
    expect(await error('/odd')).toBe('answered an unexpected type, not JSON');
    expect(await error('/problem')).toBeNull();
  });

  it('reports a 500 by its status alone, never the body', async () => {
    feed.route('/broken', answer('stack trace: SECRET-TOKEN', { 'content-type': 'text/plain' }, 500));
    const result = await fetchSource(json(`${feed.origin}/broken`), options());
    expect(result).toMatchObject({ status: 500, body: null, error: 'HTTP 500' });
  });

  it('stops reading a body over the cap, declared or not', async () => {
    const big = 'x'.repeat(5_000);
    feed.route('/declared', answer(big, { 'content-type': 'text/plain' }));
    feed.route('/chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 5; i++) res.write('x'.repeat(1_000));
      res.end();
    });
    for (const path of ['/declared', '/chunked']) {
      const result = await fetchSource(json(`${feed.origin}${path}`), options({ maxBytes: 2048 }));
      expect(result, path).toMatchObject({ body: null, error: 'the answer is over the 2 KiB cap' });
      expect(result.bytes, path).toBeLessThanOrEqual(5_000);
    }
  });

  it('times out a server that trickles its body, long before it would finish', async () => {
    let sent = 0;
    feed.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => {
        sent++;
        res.write('x');
        if (sent === 60) res.end();
      }, 100);
      res.on('close', () => clearInterval(timer));
    });
    const result = await fetchSource(json(`${feed.origin}/trickle`), options({ timeoutMs: 1_000 }));
    expect(result).toMatchObject({ status: 200, body: null, error: 'timed out after 1 s' });
    expect(sent).toBeLessThan(60);
  });

  it('times out a server that never answers', async () => {
    feed.route('/hang', () => {});
    const result = await fetchSource(json(`${feed.origin}/hang`), options({ timeoutMs: 500 }));
    expect(result).toMatchObject({ status: null, error: 'timed out after 0.5 s' });
  });

  it('describes a refused connection without the address', async () => {
    const port = feed.port;
    await feed.close();
    const result = await fetchSource(json(`http://127.0.0.1:${port}/x`), options());
    expect(result).toMatchObject({ status: null, error: 'connection refused' });
    feed = await startFeedServer();
  });
});

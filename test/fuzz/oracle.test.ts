/**
 * The fuzz oracle itself (kit.ts): it must fail what a broken server would answer, or the properties built on it
 * prove nothing. A stand-in server that has lost its protections (a thrown TypeError turned into a 500 with its
 * stack, a code outside the catalogue, an error as text/html, no request id, a request left hanging) must make the
 * same kind of property fail, naming the seed; the real catalogue must be the one docs/api.md documents.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyBytes, bodySpec, hostileJson } from './arbitraries.js';
import { assertProperty, CATALOGUE, COMMON_STATUSES, SEED, send, violations, type HttpAnswer } from './kit.js';

const allowed = new Set([200, ...COMMON_STATUSES]);

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_1', ...headers },
    text: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const problem = (status: number, code: string) => ({
  type: `https://onair.dev/errors/${code}`,
  title: 'T',
  status,
  code,
  detail: 'd',
});

describe('the oracle', () => {
  it('reads the catalogue of docs/api.md, without internal', () => {
    expect([...CATALOGUE.keys()].sort()).toEqual(
      [
        'bad_signature',
        'conflict',
        'endpoint_refused',
        'forbidden',
        'invalid_graphic',
        'invalid_request',
        'limit_reached',
        'not_found',
        'nothing_to_undo',
        'payload_too_large',
        'preview_empty',
        'rate_limited',
        'unauthorized',
        'unavailable',
        'unknown_asset',
        'unknown_input',
        'unknown_trigger',
        'unsupported_media_type',
        'version_conflict',
      ].sort(),
    );
    expect(CATALOGUE.get('bad_signature')).toBe(401);
  });

  it('passes a documented problem', () => {
    expect(violations(answer(400, problem(400, 'invalid_request')), { allowed, sent: '' })).toEqual([]);
  });

  it.each([
    ['a 500', answer(500, problem(500, 'internal')), /HTTP 500/],
    [
      'a stack trace',
      answer(400, { ...problem(400, 'invalid_request'), detail: 'TypeError: x\n    at f (/work/main/src/a.ts:1:2)' }),
      /stack frame|error name/,
    ],
    ['a file path', answer(404, { ...problem(404, 'not_found'), detail: 'ENOENT /work/main/src/x/y.ts' }), /file path/],
    ['an SQLite error', answer(409, { ...problem(409, 'conflict'), detail: 'SQLITE_CONSTRAINT_UNIQUE' }), /SQLite/],
    ['a code outside the catalogue', answer(400, problem(400, 'oops')), /not in the catalogue/],
    ['a code with the wrong status', answer(404, problem(404, 'invalid_request')), /answered with HTTP 404/],
    ['a status the route does not document', answer(418, problem(418, 'invalid_request')), /not documented/],
    [
      'an error as text/html',
      answer(400, problem(400, 'invalid_request'), { 'content-type': 'text/html' }),
      /answered as/,
    ],
    ['an error that is not JSON', answer(400, 'Bad Request'), /not JSON/],
    ['no X-Request-Id', answer(400, problem(400, 'invalid_request'), { 'x-request-id': '' }), /X-Request-Id/],
  ])('fails %s', (_, bad, message) => {
    expect(violations(bad, { allowed, sent: '' }).join('; ')).toMatch(message);
  });

  it('does not count what the request itself carried as a leak', () => {
    const echoed = answer(400, { ...problem(400, 'invalid_request'), detail: 'Error: x: unknown field' });
    expect(violations(echoed, { allowed, sent: '{"Error: x":1}' })).toEqual([]);
  });
});

describe('a property over a server without its protections', () => {
  let server: http.Server;
  let client: Client;

  beforeAll(async () => {
    // Answers like onair would if validation threw instead of refusing: prototype keys and deep nesting crash it.
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.setHeader('x-request-id', 'req_1');
        if (req.url === '/v1/hang') {
          // The hanging property's route: one fault only, so that it is the one found whatever the seed.
          if (body.includes('"hang"')) return;
          res.writeHead(400, { 'content-type': 'application/problem+json' });
          return res.end(JSON.stringify(problem(400, 'invalid_request')));
        }
        if (body.includes('"__proto__"') || body.startsWith('[[[[')) {
          const err = new TypeError("Cannot read properties of undefined (reading 'name')");
          res.writeHead(500, { 'content-type': 'application/problem+json' });
          res.end(JSON.stringify({ ...problem(500, 'internal'), detail: err.stack }));
        } else if (body.includes('"hang"')) {
          // Never answered.
        } else {
          res.writeHead(400, { 'content-type': 'application/problem+json' });
          res.end(JSON.stringify(problem(400, 'invalid_request')));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const property = (keys: string[], path = '/v1/channels') =>
    fc.asyncProperty(bodySpec(hostileJson(keys)), async (spec) => {
      const res = await send(
        client,
        {
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json' },
          body: bodyBytes(spec),
        },
        1_000,
      );
      const problems = violations(res, { allowed, sent: '' });
      if (problems.length > 0) throw new Error(problems.join('; '));
    });

  it('fails on the 500 and its stack trace, and names the seed', async () => {
    await expect(assertProperty('unprotected', property(['name']), 200)).rejects.toThrow(
      new RegExp(`seed ${SEED}[\\s\\S]*HTTP 500[\\s\\S]*stack frame`),
    );
  });

  it('fails on a request left unanswered', async () => {
    await expect(assertProperty('hanging', property(['hang'], '/v1/hang'), 200)).rejects.toThrow(
      /no answer within 1000 ms/,
    );
  }, 60_000);
});

/**
 * Behind a reverse proxy every connection comes from the proxy: with ONAIR_TRUSTED_PROXIES naming it, the
 * login throttle counts the client address the proxy puts in X-Forwarded-For; without it, that header is
 * never believed, so a client cannot pick a fresh address for each guess.
 */
import { afterEach, expect, it } from 'vitest';
import { expectProblem } from './helpers/problem.js';
import { login, setupOwner, startServerWith, type AccessServer } from './helpers/access-fixtures.js';
import { api } from './helpers/api.js';

let server: AccessServer;

afterEach(async () => {
  await server.dispose();
});

const guess = (forwardedFor: string, password = 'a wrong guess') =>
  api(server.url, '')(
    'POST',
    '/v1/auth/login',
    { email: 'owner@example.com', password },
    {
      noAuth: true,
      headers: { 'x-forwarded-for': forwardedFor },
    },
  );

it('counts the forwarded client address when the peer is a trusted proxy', async () => {
  server = await startServerWith({ ONAIR_TRUSTED_PROXIES: '127.0.0.1' });
  await setupOwner(server);
  for (let i = 0; i < 5; i++) expectProblem(await guess('198.51.100.1'), 401, 'unauthorized');
  expectProblem(await guess('198.51.100.1'), 429, 'rate_limited');
  // Another client behind the same proxy is not slowed by the first one's guessing.
  expectProblem(await guess('198.51.100.2'), 401, 'unauthorized');
  expect((await guess('198.51.100.3', 'correct horse battery staple')).status).toBe(200);
});

it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
  server = await startServerWith();
  await setupOwner(server);
  for (let i = 0; i < 5; i++) expectProblem(await guess(`198.51.100.${i}`), 401, 'unauthorized');
  expectProblem(await guess('198.51.100.99'), 429, 'rate_limited');
  expectProblem(await login(server.url, 'owner@example.com', 'yet another'), 429, 'rate_limited');
});

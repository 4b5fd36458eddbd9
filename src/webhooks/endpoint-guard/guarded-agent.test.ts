import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { request, type Agent } from 'undici';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkEndpoint, createGuardedAgent, isEndpointRefused, REFUSAL, type Resolve } from './index.js';

/** A real HTTPS receiver on 127.0.0.1 that records every TCP connection, SNI name and request. */
interface Receiver {
  server: Server;
  port: number;
  connections: number;
  serverNames: (string | false | null)[];
  paths: string[];
}

let pems: { cert: string; key: string };
let receiver: Receiver;
let agents: Agent[];

beforeAll(async () => {
  const generated = await generate([{ name: 'commonName', value: 'hooks.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'hooks.test' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  pems = { cert: generated.cert, key: generated.private };
});

beforeEach(async () => {
  const server = createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    receiver.paths.push(req.url ?? '');
    res.end('received');
  });
  receiver = { server, port: 0, connections: 0, serverNames: [], paths: [] };
  server.on('connection', () => receiver.connections++);
  server.on('secureConnection', (socket: TLSSocket) => receiver.serverNames.push(socket.servername));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.port = (server.address() as AddressInfo).port;
  agents = [];
});

afterEach(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  receiver.server.closeAllConnections();
  receiver.server.close();
  await once(receiver.server, 'close');
});

/** A resolver that answers from `answers`, one list per call (the last one repeats), and records the names. */
function scripted(...answers: string[][]): { resolve: Resolve; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolve = async (hostname) => {
    const answer = answers[Math.min(asked.length, answers.length - 1)] ?? [];
    asked.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

function agent(options: { allowPrivate: boolean; resolve: Resolve; trust?: boolean }): Agent {
  const created = createGuardedAgent({
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    connections: 1,
    connectTimeoutMs: 2_000,
    tls: options.trust === false ? undefined : { ca: pems.cert },
  });
  agents.push(created);
  return created;
}

async function get(url: string, dispatcher: Agent): Promise<{ status: number; body: string }> {
  const res = await request(url, { dispatcher });
  return { status: res.statusCode, body: await res.body.text() };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the request should have failed'),
    (err: unknown) => err,
  );
}

describe('with allowPrivate (pinning and TLS by name)', () => {
  it('connects to the resolved address and verifies the certificate by the host name', async () => {
    const { resolve, asked } = scripted(['127.0.0.1']);
    const res = await get(`https://hooks.test:${receiver.port}/x`, agent({ allowPrivate: true, resolve }));
    expect(res).toEqual({ status: 200, body: 'received' });
    expect(asked).toEqual(['hooks.test']);
    expect(receiver.paths).toEqual(['/x']);
    expect(receiver.serverNames).toEqual(['hooks.test']);
  });

  it('checks the certificate against the name, not the address it connected to', async () => {
    // The certificate also covers 127.0.0.1: were it checked against the address, other.test would pass.
    const { resolve } = scripted(['127.0.0.1']);
    const err = await failure(get(`https://other.test:${receiver.port}/`, agent({ allowPrivate: true, resolve })));
    expect(err).toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(receiver.paths).toEqual([]);
  });

  it('still verifies certificates: an untrusted one fails', async () => {
    const { resolve } = scripted(['127.0.0.1']);
    const dispatcher = agent({ allowPrivate: true, resolve, trust: false });
    const err = await failure(get(`https://hooks.test:${receiver.port}/`, dispatcher));
    expect(err).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(receiver.paths).toEqual([]);
  });

  it('connects to an IP literal as it is, without a server name', async () => {
    const { resolve, asked } = scripted(['192.0.2.1']);
    const res = await get(`https://127.0.0.1:${receiver.port}/literal`, agent({ allowPrivate: true, resolve }));
    expect(res.status).toBe(200);
    expect(asked).toEqual([]);
    expect(receiver.serverNames).toEqual([false]);
  });

  it('moves on to the next address when one refuses the connection', async () => {
    // Nothing listens on 127.0.0.2 (the receiver is bound to 127.0.0.1 only).
    const { resolve } = scripted(['127.0.0.2', '127.0.0.1']);
    const res = await get(`https://hooks.test:${receiver.port}/second`, agent({ allowPrivate: true, resolve }));
    expect(res.status).toBe(200);
    expect(receiver.paths).toEqual(['/second']);
  });
});

describe('without allowPrivate', () => {
  it('refuses a name that rebinds to loopback after it was checked, before any connection', async () => {
    const { resolve, asked } = scripted(['93.184.216.34'], ['127.0.0.1']);
    const url = `https://hooks.test:${receiver.port}/rebound`;
    await expect(checkEndpoint(url, { allowPrivate: false, resolve })).resolves.toBeInstanceOf(URL);

    const err = await failure(get(url, agent({ allowPrivate: false, resolve })));
    expect(isEndpointRefused(err)).toBe(true);
    expect(err).toMatchObject({ message: REFUSAL.host });
    expect(asked).toEqual(['hooks.test', 'hooks.test']);
    expect(receiver.connections).toBe(0);
    expect(receiver.paths).toEqual([]);
  });

  it('refuses a name with one private address among public ones', async () => {
    const { resolve } = scripted(['93.184.216.34', '127.0.0.1']);
    const err = await failure(get(`https://hooks.test:${receiver.port}/`, agent({ allowPrivate: false, resolve })));
    expect(isEndpointRefused(err)).toBe(true);
    expect(receiver.connections).toBe(0);
  });

  it('checks IP literals at connect time too', async () => {
    const { resolve, asked } = scripted(['93.184.216.34']);
    const err = await failure(get(`https://127.0.0.1:${receiver.port}/`, agent({ allowPrivate: false, resolve })));
    expect(isEndpointRefused(err)).toBe(true);
    expect(asked).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it('applies the scheme and host-name rules at connect time', async () => {
    const { resolve, asked } = scripted(['93.184.216.34']);
    const dispatcher = agent({ allowPrivate: false, resolve });
    for (const url of [`http://hooks.test:${receiver.port}/`, `https://hooks.internal:${receiver.port}/`]) {
      expect(isEndpointRefused(await failure(get(url, dispatcher))), url).toBe(true);
    }
    expect(asked).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it('fails a delivery whose name no longer resolves', async () => {
    const { resolve } = scripted([]);
    const err = await failure(get(`https://hooks.test:${receiver.port}/`, agent({ allowPrivate: false, resolve })));
    expect(err).toMatchObject({ message: REFUSAL.host });
    expect(receiver.connections).toBe(0);
  });
});

describe('isEndpointRefused', () => {
  it('finds a refusal anywhere in the cause chain, and nothing else', async () => {
    const { EndpointRefused } = await import('./index.js');
    const refused = new EndpointRefused(REFUSAL.host);
    expect(isEndpointRefused(refused)).toBe(true);
    expect(isEndpointRefused(new Error('fetch failed', { cause: new Error('wrapped', { cause: refused }) }))).toBe(
      true,
    );
    expect(isEndpointRefused(new Error('ECONNREFUSED'))).toBe(false);
    expect(isEndpointRefused({ reason: REFUSAL.host })).toBe(false);
    expect(isEndpointRefused(undefined)).toBe(false);
    const loop = new Error('loop');
    loop.cause = loop;
    expect(isEndpointRefused(loop)).toBe(false);
  });
});

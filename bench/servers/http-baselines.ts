/**
 * What users would pick instead of onair's REST path, answering the same small PATCH:
 * - `uws`: raw uWebSockets.js HTTP, answering without doing anything;
 * - `node`: bare node:http, reading the body and answering;
 * - `hono`: bare Hono on @hono/node-server, the targets' "small authenticated PATCH": the bearer key is
 *   checked (SHA-256 looked up in a Map, 401 otherwise, the least any API with keys does), then the JSON
 *   body is parsed and answered with JSON; `hono-open` is the same without the key check.
 */
import { hash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import uWS from 'uWebSockets.js';
import { childConfig, LOCALHOST, ready, serveParent } from '../lib/child.js';

type Kind = 'uws' | 'node' | 'hono' | 'hono-open';
const ANSWER = JSON.stringify({ channelId: 'ch_01a2013fb0e2756d886c117e9c09be46', frame: 1, inputs: { scoreA: 3 } });

function startUws(): Promise<number> {
  const app = uWS.App();
  app.any('/*', (res) => {
    res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(ANSWER));
  });
  return new Promise((resolve, reject) =>
    app.listen(LOCALHOST, 0, (s) => (s ? resolve(uWS.us_socket_local_port(s)) : reject(new Error('listen')))),
  );
}

function startNode(): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(ANSWER);
    });
  });
  return new Promise((resolve) => server.listen(0, LOCALHOST, () => resolve((server.address() as AddressInfo).port)));
}

function startHono(key: string | null): Promise<number> {
  const app = new Hono();
  const keys = new Map([[hash('sha256', key ?? '', 'hex'), { id: 'key_1' }]]);
  app.patch('/v1/channels/:id/inputs', async (c) => {
    if (key !== null) {
      const secret = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (!secret || !keys.has(hash('sha256', secret, 'hex'))) return c.json({ code: 'unauthorized' }, 401);
    }
    const inputs = await c.req.json<Record<string, unknown>>();
    return c.json({ channelId: c.req.param('id'), frame: 1, inputs });
  });
  return new Promise((resolve) => {
    serve({ fetch: app.fetch, port: 0, hostname: LOCALHOST }, (info) => resolve(info.port));
  });
}

const { kind, key } = childConfig<{ kind: Kind; key: string }>();
const starters: Record<Kind, () => Promise<number>> = {
  uws: startUws,
  node: startNode,
  hono: () => startHono(key),
  'hono-open': () => startHono(null),
};
const port = await starters[kind]();
serveParent({ stats: () => ({ cpu: process.cpuUsage(), at: performance.now() }) });
ready({ port });

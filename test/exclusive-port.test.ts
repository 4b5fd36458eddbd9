/**
 * The listening port is not shared: uWS would otherwise bind with SO_REUSEPORT, and a second onair started
 * on the same port would come up silently and take half of the connections.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { makeDataDir, serverEnv } from './helpers/server.js';
import { freePort, runCli } from './helpers/spawn-server.js';

const servers: ServerHandle[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A server with a data directory of its own, on `port`. */
function start(port: number): Promise<ServerHandle> {
  const dir = makeDataDir();
  dirs.push(dir);
  return startServer(loadConfig({ ...serverEnv(dir), ONAIR_PORT: String(port) })).then((server) => {
    servers.push(server);
    return server;
  });
}

it('refuses to start a second server on a port in use, saying so, while the first keeps serving', async () => {
  const port = await freePort();
  const first = await start(port);
  await expect(start(port)).rejects.toThrow(`could not listen on 127.0.0.1:${port}: the port is already in use`);
  for (let i = 0; i < 10; i++) expect(await freshHealth(first.baseUrl)).toBe(200);
});

it('says so in one line from the command, without a stack trace, with how to pick another port', async () => {
  const port = await freePort();
  await start(port);
  const dir = makeDataDir();
  dirs.push(dir);
  const second = await runCli([], { ...serverEnv(dir), ONAIR_PORT: String(port) });
  expect(second.code).toBe(1);
  const lines = second.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(`onair could not start: could not listen on 127.0.0.1:${port}: the port is already in use`);
  // What to do about it: the setting that picks another port, as a command to copy.
  expect(lines[0]).toMatch(new RegExp(`\\. Set ONAIR_PORT to another port \\(ONAIR_PORT=${port + 1} npm start\\)\\.$`));
});

it('starts again on the same port once the first server has stopped', async () => {
  const port = await freePort();
  const first = await start(port);
  expect(await freshHealth(first.baseUrl)).toBe(200);
  await first.stop();
  const second = await start(port);
  expect(second.port).toBe(port);
  expect(await freshHealth(second.baseUrl)).toBe(200);
});

/** GET /healthz on a new connection (a kept-alive one could still reach a stopped server in this process). */
function freshHealth(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

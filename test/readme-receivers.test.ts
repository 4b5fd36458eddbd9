/**
 * The README's webhook receivers, as a user would copy them: each runs as its own process (node, python3),
 * subscribed on a server that allows a plain-http local endpoint; each must print every delivered event once,
 * and refuse a delivery with a bad signature or an old timestamp with 401.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { api, createChannelWithScoreboard, expectStatus, type Event, type List } from './helpers/api.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const README = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The fenced block right after `<!-- receiver:<name> -->`. */
function receiverCode(name: string): string {
  const match = new RegExp(`<!-- receiver:${name} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!match) throw new Error(`README has no receiver:${name} block`);
  return match[1]!;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const processes: ChildProcess[] = [];
const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of processes.splice(0)) p.kill('SIGKILL');
  for (const s of servers.splice(0)) await s.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A POST signed with `secret` at `timestamp`, as onair would sign it. */
async function signedPost(url: string, secret: string, timestamp: number, body: string): Promise<number> {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': String(timestamp),
      'x-service-signature': `v1=${mac}`,
      'x-service-delivery': 'evt_manual',
      'x-service-event': 'channel.played',
    },
    body,
  });
  return res.status;
}

it.each([
  ['node', 'node', 'receiver.mjs'],
  ['python', 'python3', 'receiver.py'],
])('the README %s receiver verifies and prints every delivery once', async (name, command, fileName) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-receiver-'));
  dirs.push(dir);
  const file = path.join(dir, fileName);
  fs.writeFileSync(file, receiverCode(name));
  const server = await startTestServer({}, { ONAIR_WEBHOOK_ALLOW_PRIVATE: '1' });
  servers.push(server);
  const call = api(() => server.url, server.key);
  // The subscription first (its secret starts the receiver), pointing where the receiver will listen.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/hooks`;
  const sub = expectStatus(await call<{ id: string; secret: string }>('POST', '/v1/webhooks', { url }), 201);
  const child = spawn(command, [file], {
    env: { ...process.env, ONAIR_WEBHOOK_SECRET: sub.secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.push(child);
  const lines: string[] = [];
  child.stdout.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  await vi.waitFor(async () => expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401), {
    timeout: 10_000,
    interval: 100,
  });

  const { channelId } = await createChannelWithScoreboard(call);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 4 }), 200);
  // Every event the server logged is printed once: the same types, as many times. Events keep coming on their own
  // (the scoreboard on air with no output page raises an alert after a while), so the log is read again each time.
  const manual = `channel.played ${channelId} {}`;
  const printed = () => lines.filter((l) => l !== manual).map((l) => l.split(' ')[0]!);
  const logged = async () =>
    expectStatus(await call<List<Event>>('GET', '/v1/events?limit=100'), 200).data.map((e) => e.type);
  const allPrinted = () =>
    vi.waitFor(async () => expect(printed().sort()).toEqual((await logged()).sort()), { timeout: 15_000 });
  await allPrinted();
  const events = await logged();
  const log = expectStatus(await call<List<{ status: number }>>('GET', `/v1/webhooks/${sub.id}/deliveries`), 200);
  expect(log.data.every((a) => a.status === 204)).toBe(true);

  // After a secret roll, deliveries carry the new signature and the old one: a receiver still on the old secret
  // takes them (its signature is the second of two).
  expectStatus(await call('POST', `/v1/webhooks/${sub.id}/secret`, { overlapSeconds: 600 }), 200);
  expectStatus(await call('PATCH', `/v1/channels/${channelId}/inputs`, { scoreA: 5 }), 200);
  expect((await logged()).length).toBeGreaterThan(events.length);
  await allPrinted();
  const rolled = expectStatus(await call<List<{ status: number }>>('GET', `/v1/webhooks/${sub.id}/deliveries`), 200);
  expect(rolled.data.every((a) => a.status === 204)).toBe(true);

  // Forged, replayed and stale deliveries are refused; a good one is accepted.
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id: 'evt_manual', type: 'channel.played', channelId, data: {} });
  expect(await signedPost(url, `${sub.secret}x`, now, body)).toBe(401);
  expect(await signedPost(url, sub.secret, now - 301, body)).toBe(401);
  expect(await signedPost(url, sub.secret, now, body)).toBe(204);
  // The same delivery id again: accepted, not handled twice.
  expect(await signedPost(url, sub.secret, now, body)).toBe(204);
  // The good one's line crosses the receiver's stdout pipe; a second line for the replay would come with it.
  await vi.waitFor(() => expect(lines).toContain(manual), { timeout: 15_000 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(lines.filter((l) => l === manual)).toHaveLength(1);
  await allPrinted();
});

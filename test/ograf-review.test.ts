/**
 * Defects found reviewing OGraf import, serving and the Server API (docs/ograf.md), each with the request that showed
 * it: a zip whose stored entries share their bytes got past the unzipped cap, a manifest nested deep enough to
 * overflow the stack answered 500, the Server API could not run a custom action by the manifest's own id, and the
 * access log kept graphics' capability paths.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { api, expectStatus, tokenOf, type Channel } from './helpers/api.js';
import { expectProblem } from './helpers/problem.js';
import { manifest, MODULE, ografZip, uploadZip } from './helpers/ograf-packages.js';
import { recordingLogger } from './helpers/recording-logger.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RenderClient, isFrame, isSnapshot } from './helpers/ws-client.js';

const servers: TestServer[] = [];
const clients: RenderClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.dispose();
});

async function start(env: Record<string, string> = {}, options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options, env);
  servers.push(server);
  return { server, call: api(server.url, server.key) };
}

/**
 * A valid package with `blob` stored (not deflated), then `copies` more central directory entries naming that same
 * stored data, each declaring 0 bytes unzipped: the archive stays the size of one blob.
 */
function sharedStoredZip(blob: Uint8Array, copies: number): Uint8Array {
  const zip = zipSync({
    'lower-third.ograf.json': strToU8(JSON.stringify(manifest())),
    'graphic.mjs': strToU8(MODULE),
    'blob.bin': [blob, { level: 0 }],
  });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  const cdOffset = view.getUint32(end + 16, true);
  let at = cdOffset;
  let blobEntry: Uint8Array | null = null;
  for (let i = 0; i < count; i++) {
    const size = 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + view.getUint16(at + 28, true)));
    if (name === 'blob.bin') blobEntry = zip.slice(at, at + size);
    at += size;
  }
  const cd = zip.subarray(cdOffset, at);
  const extra: Uint8Array[] = [];
  for (let i = 0; i < copies; i++) {
    const entry = blobEntry!.slice();
    const name = strToU8(`c${String(i).padStart(4, '0')}.bin`);
    const e = new DataView(entry.buffer);
    e.setUint32(24, 0, true); // declared unzipped size
    e.setUint16(28, name.byteLength, true);
    e.setUint16(30, 0, true);
    e.setUint16(32, 0, true);
    const out = new Uint8Array(46 + name.byteLength);
    out.set(entry.subarray(0, 46));
    out.set(name, 46);
    extra.push(out);
  }
  const extraBytes = extra.reduce((n, e) => n + e.byteLength, 0);
  const out = new Uint8Array(cdOffset + cd.byteLength + extraBytes + 22);
  out.set(zip.subarray(0, cdOffset));
  out.set(cd, cdOffset);
  let w = cdOffset + cd.byteLength;
  for (const e of extra) {
    out.set(e, w);
    w += e.byteLength;
  }
  out.set(zip.subarray(end, end + 22), w);
  const eocd = new DataView(out.buffer, w, 22);
  eocd.setUint16(8, count + copies, true);
  eocd.setUint16(10, count + copies, true);
  eocd.setUint32(12, cd.byteLength + extraBytes, true);
  return out;
}

describe('OGraf review', () => {
  it('counts a stored entry by the bytes it copies, so entries sharing their data cannot pass the unzipped cap', async () => {
    const { server, call } = await start({ ONAIR_GRAPHIC_UPLOAD_MAX_BYTES: String(512 * 1024) });
    // 400 KiB stored once, named 100 more times: 40 MiB unzipped from a 400 KiB upload, past the 2 MiB cap.
    const zip = sharedStoredZip(new Uint8Array(randomBytes(400 * 1024)), 100);
    expect(zip.byteLength).toBeLessThan(512 * 1024);
    const res = await uploadZip(server.url, server.key, zip);
    expectProblem(res, 413, 'payload_too_large');
    const list = expectStatus(await call<{ data: unknown[] }>('GET', '/v1/graphics'), 200);
    expect(list.data).toEqual([]);
  });

  it('refuses a manifest nested past the JSON depth limit with 422, not a stack overflow', async () => {
    const { server } = await start();
    const levels = 5000;
    const deep = `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;
    const text = JSON.stringify(manifest({ schema: 'DEEP' })).replace('"DEEP"', deep);
    const res = await uploadZip(server.url, server.key, ografZip({ 'lower-third.ograf.json': text }));
    const problem = expectProblem(res, 422, 'invalid_graphic');
    expect(problem.errors).toEqual([
      { path: 'lower-third.ograf.json#', message: expect.stringContaining('nested') as string },
    ]);
  });

  it("runs a graphic's custom action through the Server API by the manifest's action id", async () => {
    const { server, call } = await start();
    const graphic = (await uploadZip(server.url, server.key, ografZip())).body.data[0]!;
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'OGraf' }), 201);
    const renderer = await RenderClient.connect(server.url, channel.id, { token: tokenOf(channel.outputUrl) });
    clients.push(renderer);
    await renderer.next(isSnapshot);
    const R = `/ograf/v1/renderers/${channel.id}/target/graphicInstance`;
    const renderTarget = { layer: 3 };
    const loaded = expectStatus(
      await call<{ graphicInstanceId: string }>('POST', `${R}/load`, {
        renderTarget,
        graphicId: graphic.id,
        params: { data: {} },
      }),
      200,
    );
    const addressed = { renderTarget, graphicInstanceId: loaded.graphicInstanceId };
    expectStatus(await call('POST', `${R}/playAction`, { ...addressed, params: {} }), 200);
    // The manifest names it `shake-it`; the scene's trigger running it is `shake_it`.
    const res = await call('POST', `${R}/customActions/shake-it`, { ...addressed, params: { payload: { n: 1 } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const frame = await renderer.next((m) => isFrame(m) && (m.triggers?.length ?? 0) > 0);
    expect(isFrame(frame) && frame.triggers![0]).toMatchObject({ name: 'shake_it', payload: { n: 1 } });
  });

  it("keeps graphics' capability paths out of the access log", async () => {
    const { logger, lines } = recordingLogger<{ level: number; msg: string; path?: string }>();
    const { server } = await start({}, { logger });
    const graphic = (await uploadZip(server.url, server.key, ografZip())).body.data[0]!;
    const capability = graphic.filesPath.split('/')[3]!;
    expect((await fetch(`${graphic.filesUrl}graphic.mjs`)).status).toBe(200);
    expect((await fetch(`${graphic.filesUrl}missing.js`)).status).toBe(404);
    const logged = lines.filter((l) => l.msg === 'request' && l.path?.startsWith('/ograf/files/'));
    expect(logged.map((l) => l.path)).toEqual(['/ograf/files/…/graphic.mjs', '/ograf/files/…/missing.js']);
    expect(JSON.stringify(lines)).not.toContain(capability);
  });
});

/**
 * The asset library over HTTP (docs/assets.md): uploads as a form and as raw bytes, typed from the bytes, content-
 * addressed, served immutable to an output token or a key of the workspace only, SVGs sanitised and sandboxed, size
 * caps and quotas naming their settings, and delete refused while a scene uses the asset.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, expectStatus, tokenOf, type Channel, type Problem } from './helpers/api.js';
import { sha256, solidPng, uploadForm } from './helpers/asset-files.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.dispose();
});

async function start(env: Record<string, string> = {}) {
  const server = await startTestServer({}, env);
  servers.push(server);
  return { server, call: api(server.url, server.key) };
}

const RED = solidPng(4, 2, [255, 0, 0, 255]);

describe('asset library', () => {
  it('uploads a PNG as a form, answers the same asset for the same bytes, and lists and reads it', async () => {
    const { server, call } = await start();
    const first = await uploadForm(server.url, server.key, RED, 'red.png', 'image/png');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      sha256: sha256(RED),
      type: 'image/png',
      kind: 'image',
      name: 'red.png',
      bytes: RED.length,
      width: 4,
      height: 2,
      created: true,
      path: `/assets/${sha256(RED)}.png`,
      url: `${server.url}/assets/${sha256(RED)}.png`,
    });
    expect(first.body.id).toMatch(/^ast_/);
    const again = await uploadForm(server.url, server.key, RED, 'other-name.png');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, name: 'red.png', created: false });

    const list = expectStatus(await call<{ data: { id: string }[] }>('GET', '/v1/assets'), 200);
    expect(list.data.map((a) => a.id)).toEqual([first.body.id]);
    expect(expectStatus(await call('GET', `/v1/assets/${String(first.body.id)}`), 200)).toMatchObject({
      sha256: sha256(RED),
    });
  });

  it('takes raw bytes with ?name=, past the 64 KiB cap of JSON bodies', async () => {
    const { server } = await start();
    const big = solidPng(8, 8, [0, 0, 255, 255], 200 * 1024);
    const res = await fetch(`${server.url}/v1/assets?name=big.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(big),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'big.png', bytes: big.length, type: 'image/png' });
  });

  it('serves the bytes to a key or an output token of the workspace, immutable with a strong ETag; 404 otherwise', async () => {
    const { server, call } = await start();
    const up = await uploadForm(server.url, server.key, RED, 'red.png');
    const path = String(up.body.path);
    expect((await fetch(`${server.url}${path}`)).status).toBe(404);

    const withKey = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.key}` } });
    expect(withKey.status).toBe(200);
    expect(Buffer.from(await withKey.arrayBuffer())).toEqual(RED);
    expect(withKey.headers.get('content-type')).toBe('image/png');
    expect(withKey.headers.get('etag')).toBe(`"${sha256(RED)}"`);
    expect(withKey.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(withKey.headers.get('x-content-type-options')).toBe('nosniff');
    expect(withKey.headers.get('content-security-policy')).toContain('sandbox');

    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
    const query = `?channel=${channel.id}&token=${tokenOf(channel.outputUrl)}`;
    const withToken = await fetch(`${server.url}${path}${query}`);
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const cached = await fetch(`${server.url}${path}${query}`, { headers: { 'if-none-match': `"${sha256(RED)}"` } });
    expect(cached.status).toBe(304);
    expect((await fetch(`${server.url}${path}?channel=${channel.id}&token=wrong`)).status).toBe(404);
    expect((await fetch(`${server.url}/assets/${sha256(RED)}.gif${query}`)).status).toBe(404);
  });

  it('refuses a file lying about its type (415), whatever its name and Content-Type say', async () => {
    const { server } = await start();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await uploadForm(server.url, server.key, html, 'logo.png', 'image/png');
    expect(res.status).toBe(415);
    expect((res.body as unknown as Problem).code).toBe('unsupported_media_type');
  });

  it('stores an SVG sanitised: its script is gone', async () => {
    const { server } = await start();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" onload="window.owned=1">' +
        '<script>window.owned=1</script><rect width="4" height="4" fill="#0f0"/></svg>',
    );
    const up = await uploadForm(server.url, server.key, svg, 'x.svg', 'image/svg+xml');
    expect(up.status).toBe(201);
    const res = await fetch(`${server.url}${String(up.body.path)}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    const text = await res.text();
    expect(text).not.toMatch(/script|owned|onload/);
    expect(text).toContain('<rect');
  });

  it('size caps answer 413 naming their setting: the operation, and the transport past the cap', async () => {
    const { server } = await start({ ONAIR_ASSET_MAX_BYTES: '4096', ONAIR_ASSET_SVG_MAX_BYTES: '1024' });
    const over = await uploadForm(server.url, server.key, solidPng(2, 2, [1, 2, 3, 255], 5000), 'big.png');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'payload_too_large', setting: 'ONAIR_ASSET_MAX_BYTES', limit: 4096 });
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><desc>${'a'.repeat(2000)}</desc></svg>`);
    const overSvg = await uploadForm(server.url, server.key, svg, 'big.svg');
    expect(overSvg.body).toMatchObject({ status: 413, setting: 'ONAIR_ASSET_SVG_MAX_BYTES' });
    const huge = await fetch(`${server.url}/v1/assets?name=huge.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}` },
      body: new Uint8Array(solidPng(2, 2, [1, 2, 3, 255], 200 * 1024)),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as Problem).detail).toContain('ONAIR_ASSET_MAX_BYTES');
  });

  it('the quota of a workspace answers 422 limit_reached naming the setting (count and bytes)', async () => {
    const { server } = await start({ ONAIR_LIMIT_ASSETS_PER_WORKSPACE: '1' });
    expect((await uploadForm(server.url, server.key, RED, 'a.png')).status).toBe(201);
    const second = await uploadForm(server.url, server.key, solidPng(1, 1, [0, 0, 0, 255]), 'b.png');
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({ code: 'limit_reached', setting: 'ONAIR_LIMIT_ASSETS_PER_WORKSPACE' });

    const bytes = await start({ ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE: '2048' });
    expect((await uploadForm(bytes.server.url, bytes.server.key, RED, 'a.png')).status).toBe(201);
    const big = await uploadForm(bytes.server.url, bytes.server.key, solidPng(2, 2, [9, 9, 9, 255], 3000), 'b.png');
    expect(big.status).toBe(422);
    expect(big.body).toMatchObject({ setting: 'ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE', limit: 2048 });
  });

  it('delete is refused (409 naming the scenes) while a scene uses the asset, then allowed', async () => {
    const { server, call } = await start();
    const up = await uploadForm(server.url, server.key, RED, 'red.png');
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
    const scene = expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, {
        name: 'Logo',
        definition: {
          version: 1,
          inputs: [],
          elements: [{ type: 'image', src: up.body.url, x: 0, y: 0, width: 100, height: 100 }],
        },
      }),
      201,
    );
    const refused = await call<Problem & { scenes: { id: string; name: string }[] }>(
      'DELETE',
      `/v1/assets/${String(up.body.id)}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.detail).toContain('"Logo"');
    expect(refused.body.scenes).toEqual([{ id: scene.id, name: 'Logo', channelId: channel.id }]);

    expectStatus(await call('DELETE', `/v1/channels/${channel.id}/scenes/${scene.id}`), 204);
    expectStatus(await call('DELETE', `/v1/assets/${String(up.body.id)}`), 204);
    expect((await call('GET', `/v1/assets/${String(up.body.id)}`)).status).toBe(404);
  });

  it('an image input whose value names the asset keeps it in use', async () => {
    const { server, call } = await start();
    const up = await uploadForm(server.url, server.key, RED, 'red.png');
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
    expectStatus(
      await call('POST', `/v1/channels/${channel.id}/scenes`, {
        name: 'Sponsor',
        definition: {
          version: 1,
          inputs: [{ name: 'logo', type: 'image', default: 'https://example.com/none.png' }],
          elements: [{ type: 'image', src: '{logo}', x: 0, y: 0, width: 100, height: 100 }],
        },
      }),
      201,
    );
    expectStatus(await call('DELETE', `/v1/assets/${String(up.body.id)}`), 204);
    const again = await uploadForm(server.url, server.key, RED, 'red.png');
    expectStatus(await call('PATCH', `/v1/channels/${channel.id}/inputs`, { logo: again.body.url }), 200);
    const refused = await call<Problem>('DELETE', `/v1/assets/${String(again.body.id)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('"Sponsor"');
  });

  it("a rundown item's own value naming the asset keeps it in use", async () => {
    const { server, call } = await start();
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Main' }), 201);
    const path = (rest: string) => `/v1/channels/${channel.id}/${rest}`;
    const scene = expectStatus(
      await call<{ id: string }>('POST', path('scenes'), {
        name: 'Guest',
        definition: {
          version: 1,
          inputs: [{ name: 'photo', type: 'image', scope: 'item', default: 'https://example.com/none.png' }],
          elements: [{ type: 'image', src: '{photo}', x: 0, y: 0, width: 100, height: 100 }],
        },
      }),
      201,
    );
    const up = await uploadForm(server.url, server.key, RED, 'red.png');
    const rundown = expectStatus(await call<{ id: string }>('POST', path('rundowns'), { name: 'Show' }), 201);
    const item = { sceneId: scene.id, values: { photo: up.body.url } };
    expectStatus(await call('POST', path(`rundowns/${rundown.id}/items`), item), 201);
    const refused = await call<Problem>('DELETE', `/v1/assets/${String(up.body.id)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('"Guest"');
  });
});

/**
 * Importing OGraf graphics over HTTP (docs/ograf.md, "Importing"): a zip as the body or a form of files, every
 * `*.ograf.json` found (a legacy manifest.json with a warning), manifests checked against the v1 schema with errors
 * naming the path, the upload's own size cap, zip paths that climb out or zip bombs refused, the files served at the
 * graphic's capability path with no other credential, and delete refused while a scene uses the graphic.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { api, expectStatus } from './helpers/api.js';
import { solidPng, uploadForm } from './helpers/asset-files.js';
import { expectProblem } from './helpers/problem.js';
import { manifest, MODULE, ografZip, uploadFiles, uploadZip } from './helpers/ograf-packages.js';
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

describe('importing OGraf graphics', () => {
  it('imports a zip: the manifest, inputs from the GDD, triggers from custom actions, and lists and reads it', async () => {
    const { server, call } = await start();
    const res = await uploadZip(server.url, server.key, ografZip({}, 'lower-third/'));
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([]);
    const [graphic] = res.body.data;
    expect(graphic).toMatchObject({
      graphicId: 'com.example.lower-third',
      version: '1.0.0',
      name: 'Lower third',
      main: 'graphic.mjs',
      stepCount: 2,
      files: 3,
      created: true,
      unmapped: ['players'],
      triggers: [
        { name: 'highlight', customAction: 'highlight' },
        { name: 'shake_it', customAction: 'shake-it' },
      ],
    });
    expect(graphic!.id).toMatch(/^gr_/);
    expect(graphic!.inputs).toEqual([
      { name: 'name', label: 'Name', scope: 'item', type: 'text', default: 'Jane Doe' },
      { name: 'title', label: 'Title', scope: 'item', type: 'text', default: '' },
      { name: 'accent', label: 'accent', scope: 'item', type: 'color', default: '#ff8800' },
      { name: 'team_name', label: 'team.name', scope: 'item', type: 'text', default: '' },
      { name: 'team_score', label: 'team.score', scope: 'item', type: 'number', default: 3 },
      { name: 'side', label: 'side', scope: 'item', type: 'select', options: ['left', 'right'], default: 'left' },
      { name: 'visible', label: 'visible', scope: 'item', type: 'boolean', default: true },
    ]);
    const again = await uploadZip(server.url, server.key, ografZip({}, 'lower-third/'));
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject([{ id: graphic!.id, created: false }]);
    const list = expectStatus(await call<{ data: { id: string }[] }>('GET', '/v1/graphics'), 200);
    expect(list.data.map((g) => g.id)).toEqual([graphic!.id]);
    expect(expectStatus(await call('GET', `/v1/graphics/${graphic!.id}`), 200)).toMatchObject({
      graphicId: 'com.example.lower-third',
      manifest: { v_vendor: { anything: true } },
    });
  });

  it('refuses the same id and version with other files (409), and takes another version', async () => {
    const { server } = await start();
    expect((await uploadZip(server.url, server.key, ografZip())).status).toBe(201);
    const changed = await uploadZip(server.url, server.key, ografZip({ 'graphic.mjs': `${MODULE}// v2\n` }));
    expectProblem(changed, 409, 'conflict');
    const bumped = ografZip({
      'graphic.mjs': `${MODULE}// v2\n`,
      'lower-third.ograf.json': manifest({ version: '2' }),
    });
    expect((await uploadZip(server.url, server.key, bumped)).status).toBe(201);
  });

  it('imports a form of files named by their paths, and a legacy manifest.json with a warning', async () => {
    const { server } = await start();
    const res = await uploadFiles(server.url, server.key, {
      'manifest.json': JSON.stringify(manifest({ id: 'com.example.legacy' })),
      'graphic.mjs': MODULE,
      'lib/helper.js': 'export const x = 1;\n',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject([{ graphicId: 'com.example.legacy', files: 3 }]);
    expect(res.body.warnings).toEqual([expect.stringContaining('manifest.json: a legacy manifest name')]);
  });

  it('imports a graphic whose GDD departs from the v1 rules of its gddTypes, with a warning naming each field', async () => {
    const { server } = await start();
    const loose = manifest({
      id: 'com.example.loose',
      schema: {
        type: 'object',
        properties: {
          accent: { type: 'string', gddType: 'color-rrggbb', default: '#ff8800' },
          team: { type: 'object', properties: { side: { type: 'string', gddType: 'select', enum: ['l', 'r'] } } },
          share: { type: 'string', gddType: 'percentage' },
        },
      },
    });
    const res = await uploadZip(server.url, server.key, ografZip({ 'lower-third.ograf.json': loose }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject([{ graphicId: 'com.example.loose' }]);
    expect(res.body.warnings).toEqual([
      expect.stringContaining('lower-third.ograf.json#schema.properties.accent.pattern: gddType color-rrggbb asks for'),
      expect.stringContaining('lower-third.ograf.json#schema.properties.team.properties.side.gddOptions.labels:'),
      expect.stringContaining(
        'lower-third.ograf.json#schema.properties.share.type: gddType percentage asks for type number',
      ),
    ]);
  });

  it('answers 422 invalid_graphic naming each failing path of a malformed manifest', async () => {
    const { server } = await start();
    const bad = manifest({
      supportsRealTime: 'yes',
      stepCount: -2,
      unknownField: 1,
      customActions: [{ id: 'go' }],
      author: { name: 'A', twitter: '@a' },
    });
    delete bad.main;
    const res = await uploadZip(server.url, server.key, ografZip({ 'lower-third.ograf.json': bad }));
    const problem = expectProblem(res, 422, 'invalid_graphic');
    expect(problem.errors!.map((e) => e.path).sort()).toEqual(
      [
        'lower-third.ograf.json#main',
        'lower-third.ograf.json#supportsRealTime',
        'lower-third.ograf.json#stepCount',
        'lower-third.ograf.json#unknownField',
        'lower-third.ograf.json#customActions.0.name',
        'lower-third.ograf.json#author.twitter',
      ].sort(),
    );
    const noMain = await uploadZip(
      server.url,
      server.key,
      ografZip({ 'lower-third.ograf.json': manifest({ main: 'gone.js' }) }),
    );
    const [missing, ...rest] = expectProblem(noMain, 422, 'invalid_graphic').errors!;
    expect(rest).toEqual([]);
    expect(missing!.path).toBe('lower-third.ograf.json#main');
    expect(missing!.message).toContain('gone.js');
    const none = await uploadZip(server.url, server.key, zipSync({ 'graphic.mjs': strToU8(MODULE) }));
    expectProblem(none, 422, 'invalid_graphic');
  });

  it('refuses paths that climb out of the package, are absolute or read as a URL', async () => {
    const { server } = await start();
    const names = ['../evil.js', 'a/../../evil.js', '/etc/evil.js', 'a\\..\\evil.js', 'https:evil.example/x.js'];
    for (const name of names) {
      const res = await uploadZip(server.url, server.key, ografZip({ [name]: 'x' }));
      expect(expectProblem(res, 422, 'invalid_graphic').errors![0]!.path, name).toBe(name);
    }
    // Two entries naming one file: one of them would be lost.
    const twice = await uploadZip(server.url, server.key, ografZip({ 'lib/a.js': 'one', 'lib/./a.js': 'two' }));
    expect(expectProblem(twice, 422, 'invalid_graphic').detail).toContain('a path appears once in a package');
  });

  it('holds an upload to ONAIR_GRAPHIC_UPLOAD_MAX_BYTES, not the 64 KiB of JSON bodies, and refuses a zip bomb', async () => {
    const { server } = await start({ ONAIR_GRAPHIC_UPLOAD_MAX_BYTES: String(512 * 1024) });
    const noise = new Uint8Array(randomBytes(300 * 1024));
    const big = await uploadZip(server.url, server.key, ografZip({ 'lib/noise.bin': noise }));
    expect(big.status).toBe(201);
    const over = new Uint8Array(randomBytes(600 * 1024));
    const v2 = manifest({ version: '2' });
    const tooBig = await uploadZip(
      server.url,
      server.key,
      ografZip({ 'lib/noise.bin': over, 'lower-third.ograf.json': v2 }),
    );
    expectProblem(tooBig, 413, 'payload_too_large');
    // 4 MiB of zeros zips to a few KiB: the unzipped cap (4 × 512 KiB) refuses it before inflating.
    const zeros = new Uint8Array(4 * 1024 * 1024);
    const bomb = await uploadZip(
      server.url,
      server.key,
      ografZip({ 'lib/zeros.bin': zeros, 'lower-third.ograf.json': v2 }),
    );
    expect(bomb.headers.get('content-length') === null || Number(bomb.headers.get('content-length')) < 4096).toBe(true);
    expectProblem(bomb, 413, 'payload_too_large');
  });

  it('holds a workspace to ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE, and its graphics and assets to one byte quota', async () => {
    const { server, call } = await start({ ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE: '2' });
    const version = (v: string, extra: Record<string, Uint8Array> = {}) =>
      uploadZip(server.url, server.key, ografZip({ 'lower-third.ograf.json': manifest({ version: v }), ...extra }));
    expect((await version('1')).status).toBe(201);
    expect((await version('2')).status).toBe(201);
    const third = expectProblem(await version('3'), 422, 'limit_reached');
    expect(third).toMatchObject({ limit: 2, setting: 'ONAIR_LIMIT_GRAPHICS_PER_WORKSPACE' });
    // One the workspace holds adds nothing: answered as before.
    expect((await version('2')).status).toBe(200);
    const list = expectStatus(await call<{ data: { id: string; version: string }[] }>('GET', '/v1/graphics'), 200);
    expect(list.data.map((g) => g.version)).toEqual(['1', '2']);
    expectStatus(await call('DELETE', `/v1/graphics/${list.data[0]!.id}`), 204);
    expect((await version('3')).status).toBe(201);

    // 300 KiB of graphic files and a small asset under a 320 KiB library: a second 300 KiB graphic does not fit.
    const bytes = await start({ ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE: String(320 * 1024) });
    const noise = () => new Uint8Array(randomBytes(300 * 1024));
    const first = await uploadZip(bytes.server.url, bytes.server.key, ografZip({ 'lib/noise.bin': noise() }));
    expect(first.status).toBe(201);
    const png = await uploadForm(bytes.server.url, bytes.server.key, solidPng(4, 2, [255, 0, 0, 255]), 'red.png');
    expect(png.status).toBe(201);
    const second = await uploadZip(
      bytes.server.url,
      bytes.server.key,
      ografZip({ 'lib/noise.bin': noise(), 'lower-third.ograf.json': manifest({ version: '2' }) }),
    );
    expect(expectProblem(second, 422, 'limit_reached')).toMatchObject({
      setting: 'ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE',
    });
    // The graphic's files count against the assets too.
    const asset = await uploadForm(bytes.server.url, bytes.server.key, solidPng(2, 2, [9, 9, 9, 255], 30_000), 'b.png');
    expect(asset.status).toBe(422);
    expect(asset.body).toMatchObject({ code: 'limit_reached', setting: 'ONAIR_LIMIT_ASSET_BYTES_PER_WORKSPACE' });
  });

  it("serves a graphic's files at its capability path with no other credential, and only that graphic's", async () => {
    const { server } = await start();
    const first = (await uploadZip(server.url, server.key, ografZip())).body.data[0]!;
    const other = manifest({ id: 'com.example.other' });
    const second = (
      await uploadZip(server.url, server.key, ografZip({ 'lower-third.ograf.json': other, 'secret.js': 'x' }))
    ).body.data[0]!;
    expect(first.filesUrl).toBe(`${server.url}${first.filesPath}`);
    const main = await fetch(`${first.filesUrl}graphic.mjs`);
    expect(main.status).toBe(200);
    expect(await main.text()).toBe(MODULE);
    expect(main.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(main.headers.get('access-control-allow-origin')).toBe('*');
    expect(main.headers.get('x-content-type-options')).toBe('nosniff');
    expect(main.headers.get('cache-control')).toContain('immutable');
    const etag = main.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await fetch(`${first.filesUrl}graphic.mjs`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${first.filesUrl}lib/helper.js`)).status).toBe(200);
    expect((await fetch(`${first.filesUrl}secret.js`)).status).toBe(404);
    expect((await fetch(`${second.filesUrl}secret.js`)).status).toBe(200);
    const secondCapability = second.filesPath.split('/')[3]!;
    expect((await fetch(`${first.filesUrl}..%2F..%2F${secondCapability}%2Fsecret.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/ograf/files/${'A'.repeat(32)}/graphic.mjs`)).status).toBe(404);
  });
});

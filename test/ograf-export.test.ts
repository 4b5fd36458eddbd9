/**
 * Export as OGraf (docs/ograf.md, "Export"): every bundled template and a channel's scene download as a graphic
 * package whose manifest passes the spec's v1 JSON schema (test/fixtures/ograf-schema), with its module, the scene it
 * draws, the fonts and library files it uses and a thumbnail. Playing them is ograf-export-render.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, type Api, type Channel } from './helpers/api.js';
import { sha256, solidPng, uploadForm } from './helpers/asset-files.js';
import { downloadPackage, MANIFEST_SCHEMA, ografSchemas } from './helpers/ograf-export-packages.js';
import { ografZip, uploadZip } from './helpers/ograf-packages.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let call: Api;
beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, server.key);
});
afterAll(async () => {
  await server?.dispose();
});

interface Template {
  id: string;
  name: string;
  inputs: { name: string; type: string }[];
  triggers: string[];
  definition: { transitions: unknown };
}

describe('the schema check itself', () => {
  it('refuses a manifest without main, with an unknown field, or with a wrong $schema', () => {
    const good = {
      $schema: MANIFEST_SCHEMA,
      id: 'x',
      name: 'X',
      main: 'x.mjs',
      supportsRealTime: true,
      supportsNonRealTime: false,
      v_vendor: 1,
    };
    expect(ografSchemas.validate(MANIFEST_SCHEMA, good)).toEqual([]);
    const noMain: Partial<typeof good> = { ...good };
    delete noMain.main;
    expect(ografSchemas.validate(MANIFEST_SCHEMA, noMain)).toEqual([': missing main']);
    expect(ografSchemas.validate(MANIFEST_SCHEMA, { ...good, editor: 'x' })).toEqual(['/editor: not allowed']);
    expect(ografSchemas.validate(MANIFEST_SCHEMA, { ...good, $schema: 'x' }).length).toBe(1);
    const badColour = { type: 'object', properties: { c: { type: 'string', gddType: 'color-rrggbb' } } };
    expect(ografSchemas.validate(MANIFEST_SCHEMA, { ...good, schema: badColour })).toContain(
      '/schema/properties/c: missing pattern',
    );
  });
});

describe('template export', () => {
  it('downloads every bundled template as a package whose manifest passes the v1 schema', async () => {
    const templates = expectStatus(await call<{ data: Template[] }>('GET', '/v1/templates'), 200).data;
    expect(templates.length).toBeGreaterThanOrEqual(10);
    for (const template of templates) {
      const { res, pkg } = await downloadPackage(`${server.url}/v1/templates/${template.id}/ograf`, server.key);
      expect(res.status, template.id).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('content-disposition')).toContain(`${template.id}.ograf.zip`);
      const { manifest, files, text, manifestFile } = pkg!;
      expect(manifestFile).toBe(`${template.id}.ograf.json`);
      expect(ografSchemas.validate(MANIFEST_SCHEMA, manifest), template.id).toEqual([]);
      expect(manifest).toMatchObject({ id: `onair.template.${template.id}`, name: template.name, stepCount: 1 });
      expect(Object.keys(manifest.schema!.properties)).toEqual(template.inputs.map((i) => i.name));
      expect((manifest.customActions as { id: string }[]).map((a) => a.id)).toEqual(template.triggers);
      // The module, the scene it draws, and the thumbnail the manifest names.
      expect(text(manifest.main)).toMatch(/export\s*\{[^}]*as default/);
      const scene = JSON.parse(text('scene.json')) as { width: number; height: number; scene: { definition: unknown } };
      expect(scene).toMatchObject({ format: 1, width: 1920, height: 1080 });
      expect(scene.scene.definition).toEqual(template.definition);
      const [thumb] = manifest.thumbnails as { file: string; resolution: { width: number; height: number } }[];
      const png = files[thumb!.file]!;
      expect([...png.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
      expect(Buffer.from(png).readUInt32BE(16)).toBe(thumb!.resolution.width);
      // Bundled fonts of the families its text draws with (a logo bug has no text: none).
      const fonts = Object.keys(files).filter((f) => f.startsWith('fonts/'));
      const drawsText = /"type":"(text|clock|crawl)"/.test(JSON.stringify(template.definition));
      expect(fonts.length > 0, template.id).toBe(drawsText);
      expect(fonts.every((f) => f.endsWith('.woff2'))).toBe(true);
    }
  });

  it('maps input types to GDD types', async () => {
    const { pkg } = await downloadPackage(`${server.url}/v1/templates/football-scoreboard/ograf`, server.key);
    const props = pkg!.manifest.schema!.properties;
    expect(props.homeCrest).toMatchObject({ type: 'string', gddType: 'file-path/image-path' });
    expect(props.scoreA).toMatchObject({ type: 'number', default: 0 });
    const colours = Object.values(props).filter((p) => p.gddType === 'color-rrggbb');
    expect(colours.length).toBeGreaterThan(0);
    for (const c of colours) expect(String(c.default)).toMatch(/^#[0-9a-f]{6}$/);
    const clocks = Object.values(props).filter((p) => p.gddType === 'duration-ms');
    expect(clocks.map((c) => c.type)).toEqual(['integer']);
  });

  it('answers 404 for a template that does not exist, and 401 without a key', async () => {
    expect((await call('GET', '/v1/templates/nope/ograf')).status).toBe(404);
    expect((await call('GET', '/v1/templates/lower-third/ograf', undefined, { noAuth: true })).status).toBe(401);
  });
});

describe('scene export', () => {
  it("packs the channel's scene with the library files it names, at the channel's size", async () => {
    const png = solidPng(8, 8, [0, 128, 255, 255]);
    const up = await uploadForm(server.url, server.key, png, 'badge.png', 'image/png');
    const badge = (up.body as { path: string }).path;
    const channel = expectStatus(
      await call<Channel>('POST', '/v1/channels', { name: 'Export', width: 1280, height: 720 }),
      201,
    );
    const definition = {
      version: 1,
      layer: 3,
      inputs: [
        { name: 'title', type: 'text', label: 'Title', default: 'Hello' },
        { name: 'logo', type: 'asset', label: 'Logo', default: badge },
        { name: 'tint', type: 'color', label: 'Tint', default: '#FFCC00' },
      ],
      elements: [
        { type: 'box', x: 0, y: 600, width: 1280, height: 120, fill: '{tint}' },
        { type: 'image', name: 'logo', x: 20, y: 610, width: 100, height: 100, src: '{logo}' },
        { type: 'text', x: 140, y: 620, width: 1000, height: 80, text: '{title}', fontSize: 48, fontFamily: 'Oswald' },
      ],
      transitions: { in: { type: 'fade', durationMs: 300 }, out: { type: 'cut' } },
      triggers: [{ name: 'flash', animation: 'flash' }],
    };
    const scene = expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, { name: 'Title bar', definition }),
      201,
    );
    const { res, pkg } = await downloadPackage(
      `${server.url}/v1/channels/${channel.id}/scenes/${scene.id}/ograf`,
      server.key,
    );
    expect(res.status).toBe(200);
    const { manifest, files, text } = pkg!;
    expect(ografSchemas.validate(MANIFEST_SCHEMA, manifest)).toEqual([]);
    expect(manifest).toMatchObject({ id: `onair.scene.${scene.id}`, name: 'Title bar' });
    expect(manifest.schema!.properties.logo).toMatchObject({ default: `assets/${sha256(png)}.png` });
    expect(manifest.schema!.properties.tint).toMatchObject({ default: '#ffcc00', gddType: 'color-rrggbb' });
    expect(Buffer.from(files[`assets/${sha256(png)}.png`]!).equals(png)).toBe(true);
    expect(JSON.parse(text('scene.json'))).toMatchObject({ width: 1280, height: 720 });
    const fonts = Object.keys(files).filter((f) => f.startsWith('fonts/'));
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => f.startsWith('fonts/oswald-'))).toBe(true);
    // A sketch of the scene at the channel's proportions.
    const thumb = (manifest.thumbnails as { resolution: { width: number; height: number } }[])[0]!;
    expect(thumb.resolution).toEqual({ width: 480, height: 270 });
  });

  it('answers 404 for a scene of another channel or none', async () => {
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Empty' }), 201);
    expect((await call('GET', `/v1/channels/${channel.id}/scenes/sc_nope/ograf`)).status).toBe(404);
  });

  it('refuses to export a scene that is an imported OGraf graphic (409): the graphic itself is the package', async () => {
    const up = await uploadZip(server.url, server.key, ografZip());
    expect(up.status).toBe(201);
    const channel = expectStatus(await call<Channel>('POST', '/v1/channels', { name: 'Imported' }), 201);
    const scene = expectStatus(
      await call<{ id: string }>('POST', `/v1/channels/${channel.id}/scenes`, {
        name: 'L3',
        graphic: up.body.data[0]!.id,
      }),
      201,
    );
    expect((await call('GET', `/v1/channels/${channel.id}/scenes/${scene.id}/ograf`)).status).toBe(409);
  });
});

/**
 * The OGraf graphics written for the tests (test/fixtures/ograf, README there): their files as a graphic package holds
 * them (the lower third with GSAP's ESM files copied into its `lib/gsap/`, as a graphic ships its libraries), as a zip
 * for an upload, and served under a path as onair serves a graphic's files (for the renderer tests' fake server).
 */
import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import type { Hono } from 'hono';
import type { GraphicRef, InputDef, SceneView, TriggerDef } from '@onair/protocol';

export const OGRAF_FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'ograf');
const GSAP = path.join(import.meta.dirname, '..', '..', 'node_modules', 'gsap');
/** GSAP's ESM build: its entry and the two files it imports. */
const GSAP_FILES = ['index.js', 'gsap-core.js', 'CSSPlugin.js'];

export type FixtureGraphic = 'lower-third' | 'score-bug' | 'broken-load' | 'stuck-stop' | 'match';

function walk(dir: string, prefix = ''): [string, Buffer][] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, Buffer][] => {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) return walk(path.join(dir, entry.name), `${rel}/`);
    return [[rel, fs.readFileSync(path.join(dir, entry.name))]];
  });
}

/** Every file of the graphic, by its path in the package. */
export function graphicFiles(name: FixtureGraphic): Map<string, Buffer> {
  const files = new Map(walk(path.join(OGRAF_FIXTURES, name)));
  if (name === 'lower-third') {
    for (const file of GSAP_FILES) files.set(`lib/gsap/${file}`, fs.readFileSync(path.join(GSAP, file)));
  }
  return files;
}

/** The graphic as the zip a user uploads. */
export function graphicZip(name: FixtureGraphic): Uint8Array<ArrayBuffer> {
  const entries: Record<string, Uint8Array> = {};
  for (const [file, body] of graphicFiles(name)) entries[file] = new Uint8Array(body);
  return new Uint8Array(zipSync(entries));
}

const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
};

/** Serves every fixture at `/ograf/files/test/<name>/<path>`, readable from any origin (as onair serves them). */
export function serveFixtureGraphics(app: Hono): void {
  const cache = new Map<string, Map<string, Buffer>>();
  app.get('/ograf/files/test/:name/*', (c) => {
    const name = c.req.param('name') as FixtureGraphic;
    if (!fs.existsSync(path.join(OGRAF_FIXTURES, name))) return c.notFound();
    let files = cache.get(name);
    if (!files) cache.set(name, (files = graphicFiles(name)));
    const rel = decodeURIComponent(c.req.path.slice(`/ograf/files/test/${name}/`.length));
    const body = files.get(rel);
    if (!body) return c.notFound();
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': TYPES[path.extname(rel)] ?? 'application/octet-stream',
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}

export interface GraphicSceneOptions {
  id: string;
  graphic: FixtureGraphic;
  layer?: number;
  inputs?: InputDef[];
  data?: GraphicRef['data'];
  triggers?: TriggerDef[];
}

/** A scene drawn by a fixture graphic, as the server sends it to an output page (with `base`). */
export function fixtureGraphicScene(o: GraphicSceneOptions): SceneView {
  const files = graphicFiles(o.graphic);
  const manifestName = [...files.keys()].find((f) => f.endsWith('.ograf.json'))!;
  const manifest = JSON.parse(files.get(manifestName)!.toString('utf8')) as {
    id: string;
    version: string;
    main: string;
    stepCount?: number;
  };
  const cut = { type: 'cut', durationMs: 0 } as const;
  return {
    id: o.id,
    name: o.id,
    definition: {
      version: 1,
      graphic: {
        id: `gr_${o.graphic.replace(/-/g, '_')}`,
        graphicId: manifest.id,
        version: manifest.version,
        main: manifest.main,
        stepCount: manifest.stepCount ?? 1,
        data: o.data ?? (o.inputs ?? []).map((input) => ({ input: input.name, path: [input.name] })),
        base: `/ograf/files/test/${o.graphic}/`,
      },
      layer: o.layer ?? 10,
      inputs: o.inputs ?? [],
      elements: [],
      transitions: { in: cut, out: cut },
      triggers: o.triggers ?? [],
    },
  };
}

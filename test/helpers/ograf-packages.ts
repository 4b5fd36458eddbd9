/**
 * OGraf graphic packages for tests, written the way third-party graphics are (a `*.ograf.json` manifest beside an ES
 * module whose default export is the graphic's custom element class), zipped with fflate, and the calls that upload
 * them to a test server.
 */
import { zipSync, strToU8 } from 'fflate';

export const MANIFEST_SCHEMA = 'https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json';

export function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: MANIFEST_SCHEMA,
    id: 'com.example.lower-third',
    version: '1.0.0',
    name: 'Lower third',
    description: 'A name and a title',
    main: 'graphic.mjs',
    supportsRealTime: true,
    supportsNonRealTime: false,
    stepCount: 2,
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', default: 'Jane Doe' },
        title: { type: 'string', title: 'Title', gddType: 'single-line' },
        accent: { type: 'string', gddType: 'color-rrggbb', pattern: '^#[0-9a-f]{6}$', default: '#ff8800' },
        team: {
          type: 'object',
          properties: { name: { type: 'string' }, score: { type: 'integer', default: 3 } },
        },
        side: { type: 'string', gddType: 'select', enum: ['left', 'right'], gddOptions: { labels: {} } },
        visible: { type: 'boolean', default: true },
        players: { type: 'array', items: { type: 'string' } },
      },
    },
    customActions: [
      { id: 'highlight', name: 'Highlight', schema: { type: 'object', properties: { color: { type: 'string' } } } },
      { id: 'shake-it', name: 'Shake', schema: null },
    ],
    v_vendor: { anything: true },
    ...overrides,
  };
}

export const MODULE = `class Graphic extends HTMLElement {
  async load() { return { statusCode: 200 }; }
  async dispose() {}
  async playAction() { return { statusCode: 200, currentStep: 0 }; }
  async stopAction() {}
  async updateAction() {}
  async customAction() {}
}
export default Graphic;
`;

/** A package: the manifest (as an object or raw text) and files, under `folder/` when given. */
export function ografZip(
  files: Record<string, string | Uint8Array | Record<string, unknown>> = {},
  folder = '',
): Uint8Array {
  const all: Record<string, string | Uint8Array | Record<string, unknown>> = {
    'lower-third.ograf.json': manifest(),
    'graphic.mjs': MODULE,
    'lib/helper.js': 'export const x = 1;\n',
    ...files,
  };
  const entries: Record<string, Uint8Array> = {};
  for (const [path, content] of Object.entries(all)) {
    const bytes =
      content instanceof Uint8Array
        ? content
        : strToU8(typeof content === 'string' ? content : JSON.stringify(content));
    entries[`${folder}${path}`] = bytes;
  }
  return zipSync(entries);
}

export async function uploadZip(baseUrl: string, key: string, zip: Uint8Array): Promise<Uploaded> {
  const res = await fetch(`${baseUrl}/v1/graphics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/zip' },
    body: zip as Uint8Array<ArrayBuffer>,
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Uploaded['body'] };
}

export async function uploadFiles(
  baseUrl: string,
  key: string,
  files: Record<string, string | Uint8Array>,
): Promise<Uploaded> {
  const form = new FormData();
  for (const [path, content] of Object.entries(files)) {
    form.append('graphic', new Blob([content as BlobPart]), path);
  }
  const res = await fetch(`${baseUrl}/v1/graphics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Uploaded['body'] };
}

export interface Uploaded {
  status: number;
  headers: Headers;
  body: { data: GraphicOut[]; warnings: string[] } & Record<string, unknown>;
}

export interface GraphicOut {
  id: string;
  graphicId: string;
  version: string;
  name: string;
  main: string;
  stepCount: number;
  inputs: { name: string; type: string; label: string; default: unknown; scope?: string; options?: string[] }[];
  triggers: { name: string; customAction: string }[];
  unmapped: string[];
  files: number;
  filesPath: string;
  filesUrl: string;
  created: boolean;
}

/** OGraf graphic packages exported by onair: downloaded from the server, unzipped and checked against the spec's v1 manifest schema. */
import path from 'node:path';
import { unzipSync } from 'fflate';
import { loadSchemas } from './json-schema.js';

export const MANIFEST_SCHEMA = 'https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json';
export const ografSchemas = loadSchemas(path.resolve(import.meta.dirname, '../fixtures/ograf-schema'));

export interface Unzipped {
  files: Record<string, Uint8Array>;
  manifestFile: string;
  manifest: Record<string, unknown> & {
    main: string;
    schema?: { properties: Record<string, Record<string, unknown>> };
  };
  readonly text: (file: string) => string;
}

export async function downloadPackage(url: string, key: string): Promise<{ res: Response; pkg: Unzipped | null }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000) });
  if (res.status !== 200) return { res, pkg: null };
  return { res, pkg: unzipPackage(new Uint8Array(await res.arrayBuffer())) };
}

export function unzipPackage(zip: Uint8Array): Unzipped {
  const files = unzipSync(zip);
  const manifests = Object.keys(files).filter((f) => f.endsWith('.ograf.json'));
  if (manifests.length !== 1) throw new Error(`expected one manifest, found ${manifests.join(', ')}`);
  const text = (file: string) => {
    const data = files[file];
    if (!data) throw new Error(`no ${file} in the package`);
    return new TextDecoder().decode(data);
  };
  const manifestFile = manifests[0]!;
  return { files, manifestFile, manifest: JSON.parse(text(manifestFile)) as Unzipped['manifest'], text };
}

/**
 * The graphics in a package (docs/ograf.md, "Importing"): one per `*.ograf.json` found at any depth, or, when there is
 * none, per legacy `manifest.json` (with a warning). A graphic's files are those under its manifest's folder, named
 * relative to it; its manifest must follow the v1 schema (./manifest-schema.ts) and its `main` must be one of them.
 * Every problem of every manifest is reported at once: 422 invalid_graphic, each `errors[].path` as
 * `<manifest file>#<field path>`.
 */
import type { FieldError } from '@onair/protocol';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { MAX_JSON_DEPTH, nestingDepth } from '../json-depth.js';
import { NUL_RULE, nulPathIn } from '../nul-char.js';
import { gddTypeDepartures, GraphicsManifestIn, type Manifest } from './manifest-schema.js';
import type { PackageFiles } from './package-files.js';

export interface PackagedGraphic {
  /** The manifest's path in the package. */
  manifestPath: string;
  manifest: Manifest;
  /** The graphic's files, relative to its manifest's folder (the manifest itself included). */
  files: PackageFiles;
  /** `main`, normalised (no leading `./`). */
  main: string;
}

export interface ReadGraphics {
  graphics: PackagedGraphic[];
  warnings: string[];
}

const OGRAF = /(^|\/)[^/]+\.ograf\.json$/i;
const LEGACY = /(^|\/)manifest\.json$/i;

export function readGraphics(files: PackageFiles): ReadGraphics {
  const paths = [...files.keys()].sort();
  let manifests = paths.filter((p) => OGRAF.test(p));
  const warnings: string[] = [];
  if (manifests.length === 0) {
    manifests = paths.filter((p) => LEGACY.test(p));
    for (const p of manifests) {
      warnings.push(`${p}: a legacy manifest name; OGraf v1 names the manifest *.ograf.json (read it as one).`);
    }
  }
  if (manifests.length === 0) {
    throw new AppError('invalid_graphic', 'The package has no OGraf manifest (*.ograf.json).', {
      errors: [{ path: '(package)', message: 'no *.ograf.json file' }],
    });
  }
  const errors: FieldError[] = [];
  const graphics = manifests.flatMap((p) => {
    const read = readOne(p, files);
    if ('errors' in read) errors.push(...read.errors);
    if (!('graphic' in read)) return [];
    const departures = gddTypeDepartures(read.graphic.manifest.schema);
    for (const d of departures) warnings.push(`${p}#${d} (played as it is).`);
    return [read.graphic];
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new AppError('invalid_graphic', `${first.path}: ${first.message}`, { errors });
  }
  return { graphics, warnings };
}

function readOne(manifestPath: string, all: PackageFiles): { graphic: PackagedGraphic } | { errors: FieldError[] } {
  const at = (path: string, message: string) => ({ errors: [{ path: `${manifestPath}#${path}`, message }] });
  let json: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(all.get(manifestPath));
    if (nestingDepth(text) > MAX_JSON_DEPTH) return at('', `JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
    json = JSON.parse(text);
  } catch (err) {
    return at('', `not JSON: ${(err as Error).message}`);
  }
  // Its fields are stored (name, id, version, the schema's texts): U+0000 would fail on Postgres, not on SQLite.
  const nul = nulPathIn(json);
  if (nul !== null) return at(nul, NUL_RULE);
  const parsed = GraphicsManifestIn.safeParse(json);
  if (!parsed.success) return { errors: issuesOf(manifestPath, parsed.error) };
  const root = manifestPath.includes('/') ? manifestPath.slice(0, manifestPath.lastIndexOf('/') + 1) : '';
  const files: PackageFiles = new Map();
  for (const [path, data] of all) if (path.startsWith(root)) files.set(path.slice(root.length), data);
  const main = parsed.data.main.replace(/^\.\//, '');
  if (!files.has(main)) return at('main', `"${parsed.data.main}" is not a file of the package (next to the manifest)`);
  return { graphic: { manifestPath, manifest: parsed.data, files, main } };
}

function issuesOf(file: string, error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: `${file}#${[...at, key].join('.')}`, message: 'unknown field' }));
    }
    return [{ path: `${file}#${at.join('.')}`, message: issue.message }];
  });
}

// Bundles the operator dashboard: dashboard/src/main.tsx (Preact) → public/app/dashboard-<hash>.js and
// dashboard-<hash>.css, and the page that loads them, public/app/index.html (served at /, no-cache). The
// scripts and styles are content-hashed, so a browser never runs an old script with a new page. Nothing is
// fetched from a CDN: the dashboard works on a LAN with no internet. Run by `npm run build:dashboard`;
// idempotent.
import { build } from 'esbuild';
import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'public', 'app');
const ASSET_PREFIX = '/app/';

async function bundle() {
  const result = await build({
    entryPoints: [join(here, 'src/main.tsx')],
    outdir: out,
    entryNames: 'dashboard-[hash]',
    bundle: true,
    format: 'esm',
    splitting: false,
    minify: true,
    sourcemap: 'linked',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = files.find((file) => /^dashboard-[A-Z0-9]+\.js$/i.test(file));
  const style = files.find((file) => /^dashboard-[A-Z0-9]+\.css$/i.test(file));
  if (!script || !style) throw new Error('esbuild produced no dashboard-<hash>.js and .css');
  return { script, style };
}

function page({ script, style }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>onair</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PREFIX}${style}">
<script type="module" src="${ASSET_PREFIX}${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The onair dashboard needs JavaScript. The API works without it: see /docs.</noscript>
</body>
</html>
`;
}

/** Write-then-rename, so a server reading the file mid-build never serves half of it. */
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

async function removeStale(keep) {
  const names = new Set(keep.flatMap((file) => [file, `${file}.map`]));
  for (const file of await readdir(out)) {
    if (/^dashboard-.*\.(js|css)(\.map)?$/.test(file) && !names.has(file)) await unlink(join(out, file));
  }
}

async function main() {
  await mkdir(out, { recursive: true });
  const assets = await bundle();
  await writeAtomic(join(out, 'index.html'), page(assets));
  await removeStale([assets.script, assets.style]);
}

main().catch((err) => {
  // esbuild has already printed its own diagnostics; anything else is printed here.
  if (!err?.errors) console.error(err);
  process.exitCode = 1;
});

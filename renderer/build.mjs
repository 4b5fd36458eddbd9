// Bundles the output page: renderer/src/main.ts → dist/render-<hash>.js, the bundled fonts
// (dist/fonts/<name>-<hash>.woff2, served at /render/fonts/), the tiny HTML shell (dist/render.html), the host page of
// OGraf graphics (dist/graphic-host-<hash>.html, its script inline) and dist/manifest.json. Also the module of
// exported OGraf packages (dist/ograf/: graphic.mjs, its fonts, the templates' pictures as thumbnails;
// docs/ograf.md). Run by `npm run build:renderer`; idempotent.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const fontsDir = join(dist, 'fonts');
const ASSET_PREFIX = '/render/assets/';

/**
 * The page each OGraf graphic instance runs in, in a sandboxed iframe (renderer/src/graphic-host.ts). Its script is
 * inline: it is served without a policy of its own (the sandbox is what isolates it), so the graphic's code may load
 * what third-party graphics load (a CDN's library, a web font).
 */
async function bundleGraphicHost() {
  const result = await build({
    entryPoints: [join(here, 'src/graphic-host.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'chrome103',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
  const script = result.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>OGraf graphic</title>
<link rel="icon" href="data:,">
<style>html, body { background: transparent; margin: 0; padding: 0; overflow: hidden; width: 100%; height: 100%; }</style>
<script>${script}</script>
</head>
<body></body>
</html>
`;
  const hash = createHash('sha256').update(html).digest('hex').slice(0, 10).toUpperCase();
  return { name: `graphic-host-${hash}.html`, html };
}

async function bundle(graphicHost) {
  const result = await build({
    entryPoints: [join(here, 'src/main.ts')],
    outdir: dist,
    entryNames: 'render-[hash]',
    bundle: true,
    format: 'iife',
    minify: true,
    sourcemap: 'linked',
    // Hosts embed old Chromium (OBS, vMix, CasparCG); esbuild fails the build on syntax it cannot lower.
    target: 'chrome103',
    // Font files imported by renderer/src/font-files.ts become URLs of content-hashed copies.
    loader: { '.woff2': 'file' },
    assetNames: 'fonts/[name]-[hash]',
    publicPath: '/render/',
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
    define: { GRAPHIC_HOST_URL: JSON.stringify(`${ASSET_PREFIX}${graphicHost}`) },
  });
  const script = Object.keys(result.metafile.outputs)
    .map((file) => basename(file))
    .find((file) => /^render-[A-Z0-9]+\.js$/i.test(file));
  if (!script) throw new Error('esbuild produced no render-<hash>.js');
  const fonts = Object.keys(result.metafile.outputs)
    .filter((file) => file.endsWith('.woff2'))
    .map((file) => basename(file));
  return { script, fonts };
}

// `data:,` as the icon stops browsers asking the server for a favicon on every load.
// The shell stays tiny: OBS never retries a failed first load, so the script does all the retrying.
// If the script itself fails to load (server restarting, a redeploy under a new hash), the inline
// loader retries with backoff. It reloads the page only when the shell answers with a different
// script, since a reload that fails would leave the page dead for good.
const LOADER = `(function () {
  var delay = 500;
  function retry(script) {
    delay = Math.min(delay * 2, 30000);
    setTimeout(function () {
      fetch(location.href, { cache: 'no-store' })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          if (html.indexOf(script.getAttribute('src')) < 0) return location.reload();
          var again = document.createElement('script');
          again.src = script.getAttribute('src');
          document.head.appendChild(again);
        })
        .catch(function () { retry(script); });
    }, delay * (0.5 + Math.random() / 2));
  }
  addEventListener('error', function (e) {
    var t = e.target;
    if (t && t.tagName === 'SCRIPT' && t.src) retry(t);
  }, true);
})();`;

function shell(script) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>onair</title>
<link rel="icon" href="data:,">
<style>html, body { background: transparent; margin: 0; padding: 0; overflow: hidden; }</style>
<script>${LOADER}</script>
<script src="${ASSET_PREFIX}${script}" defer></script>
</head>
<body></body>
</html>
`;
}

/** Write-then-rename, so a server reading the file mid-build never serves half of it. */
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

async function removeStale(script, fonts, graphicHost) {
  const keep = new Set([script, `${script}.map`, graphicHost]);
  for (const file of await readdir(dist)) {
    if (/^(render-.*\.js(\.map)?|graphic-host-.*\.html)$/.test(file) && !keep.has(file)) await unlink(join(dist, file));
  }
  const keepFonts = new Set(fonts);
  for (const file of await readdir(fontsDir)) {
    if (file.endsWith('.woff2') && !keepFonts.has(file)) await unlink(join(fontsDir, file));
  }
}

/**
 * The OGraf module: an ES module (a graphic's `main` must be one), its fonts beside it in fonts/, named as the
 * module imports them (relative to itself, so the package plays from any folder). Built aside, then swapped in.
 */
async function bundleGraphic() {
  const out = join(dist, 'ograf');
  const next = join(dist, 'ograf.next');
  await rm(next, { recursive: true, force: true });
  await build({
    entryPoints: { graphic: join(here, 'src/ograf-graphic.ts') },
    outdir: next,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'chrome103',
    loader: { '.woff2': 'file' },
    assetNames: 'fonts/[name]-[hash]',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
  const thumbnails = join(next, 'thumbnails');
  await mkdir(thumbnails, { recursive: true });
  const images = join(here, '..', 'docs', 'images');
  for (const file of await readdir(images)) {
    if (/^template-.*\.png$/.test(file)) await copyFile(join(images, file), join(thumbnails, file));
  }
  await rm(out, { recursive: true, force: true });
  await rename(next, out);
}

async function main() {
  await mkdir(fontsDir, { recursive: true });
  await bundleGraphic();
  const host = await bundleGraphicHost();
  await writeAtomic(join(dist, host.name), host.html);
  const { script, fonts } = await bundle(host.name);
  // Shell and manifest point at the new script only once it exists; stale scripts go last.
  await writeAtomic(join(dist, 'render.html'), shell(script));
  const manifest = { script, html: 'render.html', graphicHost: host.name };
  await writeAtomic(join(dist, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await removeStale(script, fonts, host.name);
}

main().catch((err) => {
  // esbuild has already printed its own diagnostics; anything else is printed here.
  if (!err?.errors) console.error(err);
  process.exitCode = 1;
});

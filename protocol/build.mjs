// Compiles @onair/protocol to one JavaScript module for `node dist/cli.js`, which runs without tsx: the package
// itself exports its TypeScript source (what tsx, vitest, esbuild and tsc read), which plain Node cannot load.
// `npm run build` writes it to dist/node_modules/@onair/protocol/, where Node's resolution from dist/*.js looks
// before the workspace link in node_modules/. Usage: node protocol/build.mjs <output directory>.
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function main() {
  const target = process.argv[2];
  if (!target) throw new Error('usage: node protocol/build.mjs <output directory>');
  const out = resolve(target);
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [join(here, 'src/index.ts')],
    outfile: join(out, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  const { name, version, license } = JSON.parse(await readFile(join(here, 'package.json'), 'utf8'));
  const manifest = { name, version, private: true, license, type: 'module', exports: './index.js' };
  await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((err) => {
  // esbuild has already printed its own diagnostics; anything else is printed here.
  if (!err?.errors) console.error(err);
  process.exitCode = 1;
});

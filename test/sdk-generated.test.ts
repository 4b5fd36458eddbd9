/**
 * What the SDKs take from the server cannot drift from it: the committed OpenAPI document and the types generated
 * from it (TypeScript, Python, Go) are exactly what `npm run sdk:generate` writes now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { generatedFiles } from '../sdks/generated-files.js';

const SDKS = path.resolve(import.meta.dirname, '..', 'sdks');

it('has every generated SDK file up to date with the server (run `npm run sdk:generate` when this fails)', async () => {
  const { files, skipped } = await generatedFiles();
  if (process.env.CI === 'true') expect(skipped).toEqual([]);
  expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);
  for (const [relative, text] of Object.entries(files)) {
    const committed = fs.readFileSync(path.join(SDKS, relative), 'utf8');
    expect(committed === text, `sdks/${relative} is stale: run npm run sdk:generate`).toBe(true);
  }
}, 120_000);

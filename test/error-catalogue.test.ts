/**
 * The error catalogue, the code and the documentation agree: every code the server can answer with is in the
 * catalogue (@onair/protocol, ERROR_CATALOGUE) and in docs/api.md's "Errors" table with the same status, and nothing
 * is documented or catalogued that no code path produces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@onair/protocol';

const ROOT = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|contract|fixtures)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Codes passed literally to `new AppError(…)` anywhere in src/. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/new AppError\(\s*'([a-z_]+)'/g)) codes.add(m[1]!);
  }
  return codes;
}

/** `| 400 | \`invalid_request\` | …` rows under docs/api.md's "## Errors" heading. */
function documentedCodes(): Map<string, number> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => /^Errors\b/.test(s));
  if (!section) throw new Error('docs/api.md has no "## Errors" section');
  const rows = [...section.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm)];
  return new Map(rows.map((m) => [m[2]!, Number(m[1])]));
}

it('documents every code the server throws, with its status, and nothing else', () => {
  const thrown = [...thrownCodes()].sort();
  const documented = documentedCodes();
  expect(thrown.length).toBeGreaterThan(8);
  expect([...documented.keys()].sort(), 'docs/api.md "Errors" table vs codes thrown in src/').toEqual(thrown);
  for (const [code, status] of documented) {
    expect(status, code).toBe(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE]?.status);
  }
});

it('catalogues exactly the codes the server throws', () => {
  expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...thrownCodes()].sort());
});

/**
 * `npm run sdk:generate`: writes what the SDKs take from the server, so they cannot drift from it
 * (sdks/generated-files.ts says what and how). test/sdk-generated.test.ts fails when a committed file differs
 * from what this would write now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from './generated-files.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const { files, skipped } = await generatedFiles();
for (const [relative, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), text);
  process.stdout.write(`wrote sdks/${relative}\n`);
}
for (const why of skipped) process.stdout.write(`warning: ${why}\n`);

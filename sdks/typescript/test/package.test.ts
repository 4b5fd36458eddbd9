/**
 * The package as a user gets it: `npm pack` builds it (prepack), and the tarball, unpacked into a project of its
 * own, is imported by its package name through `exports` and talks to a real server, with no source files and no
 * dependencies but the platform's.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type SdkServer } from './helpers.js';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
let sdk: SdkServer;
let project: string;

beforeAll(async () => {
  sdk = await startServer();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-sdk-user-'));
}, 120_000);
afterAll(async () => {
  await sdk.dispose();
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(path.join(PACKAGE_DIR, 'dist'), { recursive: true, force: true });
});

it('packs into a tarball that installs and works by its package name', async () => {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', project], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = packed!.files.map((f) => f.path);
  expect(files).toContain('dist/index.js');
  expect(files).toContain('dist/index.d.ts');
  expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

  // Unpacked where `import '@onair/sdk'` finds it, as npm would install it.
  const installed = path.join(project, 'node_modules', '@onair', 'sdk');
  fs.mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(project, packed!.filename), '-C', installed, '--strip-components=1']);
  fs.writeFileSync(path.join(project, 'package.json'), '{"type":"module","private":true}');
  fs.writeFileSync(
    path.join(project, 'main.js'),
    `import { OnairClient, verifyWebhook, signWebhook } from '@onair/sdk';
const client = new OnairClient({ baseUrl: process.env.ONAIR_TEST_URL, apiKey: process.env.ONAIR_TEST_KEY });
const channel = await client.channels.create({ name: 'From the tarball' });
const headers = await signWebhook('{"id":"evt_1"}', 'whsec_x');
console.log(JSON.stringify({ name: channel.name, verify: typeof verifyWebhook, signed: Object.keys(headers).sort() }));
`,
  );
  // Asynchronously: the server runs in this process and must go on answering.
  const { stdout } = await promisify(execFile)(process.execPath, ['main.js'], {
    cwd: project,
    env: { ...process.env, ...sdk.env },
  });
  expect(JSON.parse(stdout)).toEqual({
    name: 'From the tarball',
    verify: 'function',
    signed: ['X-Service-Signature', 'X-Service-Timestamp'],
  });
}, 120_000);

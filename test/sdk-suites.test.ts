/**
 * The Python and Go SDKs' own test suites, each run as its ecosystem runs it, against a real onair server of its
 * own (test/helpers/sdk-server.ts). The TypeScript SDK's suite is vitest files run with the rest
 * (sdks/typescript/test). Each suite's counts go to .tmp/sdk-suites/<name>.json, which .ci/run prints.
 *
 * Without a Go toolchain the Go suite is skipped, except in CI (CI=true), where .ci/run installs Debian's
 * golang-go and a missing toolchain is a failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSdkServer, type SdkServer } from './helpers/sdk-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE_TIMEOUT_MS = 240_000;

let sdk: SdkServer | undefined;
afterEach(async () => {
  await sdk?.dispose();
  sdk = undefined;
});

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface Run {
  code: number | null;
  output: string;
}

function runSuite(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS - 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function record(name: string, counts: Counts): void {
  const dir = path.join(ROOT, '.tmp', 'sdk-suites');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(counts));
}

function hasGo(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

it(
  'runs the Python SDK suite (python3 -m unittest) against a real server: every test passes, none skipped',
  async () => {
    sdk = await startSdkServer();
    const run = await runSuite(
      'python3',
      ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'],
      path.join(ROOT, 'sdks', 'python'),
      { ...sdk.env, PYTHONPATH: 'src', PYTHONDONTWRITEBYTECODE: '1' },
    );
    const lines = run.output.split('\n');
    const counts = {
      passed: lines.filter((l) => / \.\.\. ok$/.test(l)).length,
      failed: lines.filter((l) => / \.\.\. (FAIL|ERROR)$/.test(l)).length,
      skipped: lines.filter((l) => / \.\.\. skipped /.test(l)).length,
    };
    record('python', counts);
    expect(run.code, run.output).toBe(0);
    expect(counts.skipped, run.output).toBe(0);
    expect(counts.passed, run.output).toBeGreaterThan(10);
  },
  SUITE_TIMEOUT_MS,
);

const goMissing = !hasGo();
it.skipIf(goMissing && process.env.CI !== 'true')(
  'runs the Go SDK suite (go test) against a real server: every test passes, none skipped',
  async () => {
    expect(goMissing, 'CI must have Go: .ci/run installs golang-go').toBe(false);
    sdk = await startSdkServer();
    // GOPROXY=off: the SDK has no dependencies, and nothing may be downloaded.
    const run = await runSuite('go', ['test', '-count=1', '-v', './...'], path.join(ROOT, 'sdks', 'go'), {
      ...sdk.env,
      GOPROXY: 'off',
      GOFLAGS: '-mod=mod',
    });
    const count = (word: string) => run.output.split('\n').filter((l) => l.trim().startsWith(`--- ${word}:`)).length;
    const counts = { passed: count('PASS'), failed: count('FAIL'), skipped: count('SKIP') };
    record('go', counts);
    expect(run.code, run.output).toBe(0);
    expect(counts.skipped, run.output).toBe(0);
    expect(counts.passed, run.output).toBeGreaterThan(10);
  },
  SUITE_TIMEOUT_MS,
);

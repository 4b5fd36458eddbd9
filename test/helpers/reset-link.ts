/**
 * `onair reset-password <email>` run as the operator would, beside the live server: returns the printed
 * one-time link's token, or null when the command says there is no such account.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export function resetTokenFor(dataDir: string, baseUrl: string, email: string): string | null {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'reset-password', email], {
    cwd: ROOT,
    env: { ...process.env, ONAIR_DATA_DIR: dataDir, ONAIR_BASE_URL: baseUrl },
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (run.status === 1 && run.stderr.includes('there is no account')) return null;
  if (run.status !== 0) throw new Error(`reset-password exited with ${run.status}: ${run.stderr}`);
  const match = /\/reset\?token=([A-Za-z0-9]+)/.exec(run.stdout);
  if (!match?.[1]) throw new Error(`no reset link in: ${run.stdout}`);
  return match[1];
}

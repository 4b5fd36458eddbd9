/**
 * `onair restore <file>`: put a backup in place of the database of ONAIR_DATA_DIR while no server runs
 * there (../store/sqlite/restore.ts). The database that was there is moved aside, never deleted.
 */
import { ConfigError, loadConfig } from '../config.js';
import { BackupError } from '../store/sqlite/backup.js';
import { DataDirInUseError } from '../store/sqlite/data-dir-lock.js';
import { restoreDatabase } from '../store/sqlite/restore.js';
import { explained } from './command-error.js';

export async function runRestore(file: string): Promise<void> {
  const { dataDir } = await explained([ConfigError], () => loadConfig());
  const result = await explained([BackupError, DataDirInUseError], () => restoreDatabase(dataDir, file));
  const lines = [`Restored ${file} into ${result.file} (schema version ${result.schemaVersion}). Integrity check: ok.`];
  lines.push(
    result.movedAside
      ? `The database that was there before is now in ${result.movedAside}; delete that folder once you no longer need it.`
      : 'There was no database there before.',
    'Start onair to serve the restored data.',
  );
  if (result.modes.tightened.length > 0) {
    lines.push(`Made private (only this user may read them): ${result.modes.tightened.join(', ')}.`);
  }
  for (const problem of result.modes.problems) lines.push(`Warning: ${problem}.`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

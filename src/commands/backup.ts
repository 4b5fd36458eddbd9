/**
 * `onair backup <file> [--force]`: a consistent copy of the database of ONAIR_DATA_DIR, taken while the
 * server runs (../store/sqlite/backup.ts). Prints where it went, its size, and when the snapshot was taken.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, backupDatabase, DB_FILE } from '../store/sqlite/backup.js';
import { explained } from './command-error.js';

export async function runBackup(file: string, force: boolean): Promise<void> {
  const { dataDir } = await explained([ConfigError], () => loadConfig());
  const result = await explained([BackupError], () => backupDatabase(dataDir, file, { force }));
  process.stdout.write(
    `Backed up ${path.join(dataDir, DB_FILE)} to ${result.file}: ${formatBytes(result.bytes)}, ` +
      `snapshot taken at ${result.takenAt.toISOString()}, in ${Math.round(result.durationMs)} ms. ` +
      'Integrity check: ok.\n',
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

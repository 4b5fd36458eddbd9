import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Checkpointer } from './checkpointer.js';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';

describe('Checkpointer', () => {
  const tempDir = tempDirs('onair-checkpoint-');

  /**
   * Commits 32 KB every millisecond or so (a tick and webhook bookkeeping, faster than life), `bytes` in all (about a
   * second of it on an idle machine): the load under which PASSIVE checkpoints alone never let SQLite start the WAL over.
   * Returns the bytes committed and the largest the WAL file got.
   *
   * The worker runs at the writer's priority here. At its own (CHECKPOINT_NICE) it yields to everything else on a
   * busy machine, and the WAL then grows with what is written whatever the RESTART does: these tests are about the
   * checkpoints, not about who gets the CPU (sqlite-store.test.ts checks the priority).
   */
  async function writeSteadily(restartBytes: number, bytes: number): Promise<{ written: number; largestWal: number }> {
    const dir = tempDir();
    const file = path.join(dir, 'onair.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('journal_size_limit = 67108864');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)');
    const failures: Error[] = [];
    const checkpointer = new Checkpointer({
      file,
      synchronous: 'NORMAL',
      intervalMs: 20,
      restartBytes,
      nice: 0,
      onFailure: (err) => failures.push(err),
    });
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    const body = Buffer.alloc(32 * 1024, 7);
    let written = 0;
    let largestWal = 0;
    while (written < bytes) {
      insert.run(body);
      written += body.length;
      checkpointer.written();
      largestWal = Math.max(largestWal, fs.statSync(`${file}-wal`).size);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await checkpointer.stop();
    db.close();
    expect(failures).toEqual([]);
    return { written, largestWal };
  }

  it('keeps the WAL near restartBytes under a steady stream of commits (the file never needs cutting back)', async () => {
    const { written, largestWal } = await writeSteadily(1024 * 1024, 32 * 1024 * 1024);
    expect(written).toBeGreaterThan(6 * 1024 * 1024);
    // With PASSIVE checkpoints alone the WAL holds nearly all of it (the next test); here a few MB at most.
    expect(largestWal).toBeLessThan(Math.min(written / 3, 8 * 1024 * 1024));
  });

  it('without the RESTART (a threshold out of reach) the WAL grows with everything written', async () => {
    // The control for the test above: the same load, the same PASSIVE checkpoints, no RESTART.
    const { written, largestWal } = await writeSteadily(Number.MAX_SAFE_INTEGER, 32 * 1024 * 1024);
    expect(largestWal).toBeGreaterThan(written / 2);
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WalFlusher } from './wal-flush.js';
import { tempDirs } from '../../../test/helpers/temp-dirs.js';

describe('WalFlusher', () => {
  const tempDir = tempDirs('onair-flush-');

  function file(): string {
    const dir = tempDir();
    const f = path.join(dir, 'onair.db-wal');
    fs.writeFileSync(f, 'frames');
    return f;
  }

  it('is null when there is no -wal file (the store then syncs inside SQLite)', () => {
    expect(WalFlusher.open(path.join(os.tmpdir(), 'onair-no-such-dir', 'x.db-wal'))).toBeNull();
  });

  it('settles every flush, in the order asked, while flushes overlap', async () => {
    const flusher = WalFlusher.open(file())!;
    const order: number[] = [];
    const all = Array.from({ length: 50 }, (_, i) => flusher.flush().then(() => order.push(i)));
    await Promise.all(all);
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // Writes asked while a flush runs share the next one: at most two distinct flushes for a burst.
    const burst = [flusher.flush(), flusher.flush(), flusher.flush()];
    expect(new Set(burst).size).toBeLessThanOrEqual(2);
    await Promise.all(burst);
    await flusher.close();
  });

  it('after one failed flush every later flush fails too (the kernel may have dropped the pages)', async () => {
    const wal = file();
    const flusher = WalFlusher.open(wal)!;
    await flusher.flush();
    // Make its fdatasync fail: close the descriptor underneath it (found through /proc).
    const fd = fs
      .readdirSync('/proc/self/fd')
      .map(Number)
      .find((n) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${n}`) === wal;
        } catch {
          return false;
        }
      })!;
    fs.closeSync(fd);
    await expect(flusher.flush()).rejects.toThrow(/fdatasync of the WAL failed/);
    // The number is free again: another file takes it, so a flusher that forgot the failure would now
    // "succeed" on the wrong file.
    const other = fs.openSync(file(), 'r');
    try {
      expect(other).toBe(fd);
      await expect(flusher.flush()).rejects.toThrow(/restart the server/);
    } finally {
      fs.closeSync(other);
    }
  });

  it("does not wait behind work on libuv's thread pool (argon2, file reads): it has a thread of its own", async () => {
    const flusher = WalFlusher.open(file())!;
    await flusher.flush();
    // More slow tasks than the pool has threads (4 unless UV_THREADPOOL_SIZE says otherwise): the pool is full.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    let poolDone = 0;
    const pool = Array.from(
      { length: threads * 2 },
      () =>
        new Promise<void>((resolve) =>
          crypto.pbkdf2('password', 'salt', 400_000, 64, 'sha512', () => {
            poolDone++;
            resolve();
          }),
        ),
    );
    await flusher.flush();
    expect(poolDone).toBe(0);
    await Promise.all(pool);
    await flusher.close();
  });

  it('close() waits for the flush under way', async () => {
    const flusher = WalFlusher.open(file())!;
    let flushed = false;
    void flusher.flush().then(() => (flushed = true));
    await flusher.close();
    expect(flushed).toBe(true);
  });
});

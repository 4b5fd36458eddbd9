/**
 * Finds the WAL flusher's file descriptor in this process (Linux /proc), so a storage-failure test can close
 * it under the running server and make the next flush fail.
 */
import fs from 'node:fs';

/** This process's read-only descriptor on the -wal file: the flusher's (SQLite's own are read-write). */
export function flusherFd(wal: string): number | undefined {
  for (const name of fs.readdirSync('/proc/self/fd')) {
    const fd = Number(name);
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== wal) continue;
      const flags = /flags:\s+(\d+)/.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & 3) === 0) return fd;
    } catch {
      // closed while we looked
    }
  }
  return undefined;
}

/**
 * Closes the descriptor the in-process store flushes `wal` through and puts /dev/null in its place, whose
 * fdatasync fails (EINVAL): a descriptor merely closed could be reused by a file (whose fdatasync succeeds) before
 * the next flush. Answers a function that closes the /dev/null descriptor, for the test's cleanup.
 */
export function breakFlusher(wal: string): () => void {
  const fd = flusherFd(wal);
  if (fd === undefined) throw new Error('the store should flush through a read-only descriptor on the -wal file');
  fs.closeSync(fd);
  const extra: number[] = [];
  try {
    // A new descriptor takes the lowest free number: open until one lands on the flusher's.
    for (let n = fs.openSync('/dev/null', 'r'); n !== fd; n = fs.openSync('/dev/null', 'r')) {
      extra.push(n);
      if (extra.length > 1000) throw new Error(`could not reopen descriptor ${fd}`);
    }
  } finally {
    for (const n of extra) fs.closeSync(n);
  }
  return () => fs.closeSync(fd);
}

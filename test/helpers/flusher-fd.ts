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

import { describe, expect, it } from 'vitest';
import { repeatedOnce } from './logger.js';

describe('repeatedOnce', () => {
  it('logs a repeating failure once per window, then with how often it repeated', () => {
    let now = 0;
    const lines: { message: string; repeats: number }[] = [];
    const log = repeatedOnce<object>(
      (err, _ctx, repeats) => lines.push({ message: (err as Error).message, repeats }),
      60_000,
      () => now,
    );
    for (let i = 0; i < 100; i++, now += 16) log(new Error('EIO'), {});
    expect(lines).toEqual([{ message: 'EIO', repeats: 0 }]);
    log(new Error('SQLITE_FULL'), {});
    expect(lines.at(-1)).toEqual({ message: 'SQLITE_FULL', repeats: 0 });
    for (let i = 0; i < 3; i++) log(new Error('SQLITE_FULL'), {});
    now += 60_000;
    log(new Error('SQLITE_FULL'), {});
    expect(lines.at(-1)).toEqual({ message: 'SQLITE_FULL', repeats: 3 });
    expect(lines).toHaveLength(3);
  });
});

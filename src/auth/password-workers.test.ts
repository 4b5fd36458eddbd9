import { afterEach, describe, expect, it } from 'vitest';
import { PasswordWorkers } from './password-workers.js';

describe('PasswordWorkers', () => {
  let workers: PasswordWorkers | undefined;
  afterEach(() => {
    workers?.resize(0);
    workers = undefined;
  });

  it('hashes with argon2id and verifies, on its own threads', async () => {
    workers = new PasswordWorkers(2);
    const hash = await workers.hash('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$/);
    const checks = await Promise.all([
      workers.verify(hash, 'correct horse battery'),
      workers.verify(hash, 'wrong horse battery'),
      workers.verify(hash, 'correct horse battery'),
    ]);
    expect(checks).toEqual([true, false, true]);
  });

  it('fails the task, not the thread, on a hash that is not one', async () => {
    workers = new PasswordWorkers(1);
    await expect(workers.verify('not a hash', 'x')).rejects.toThrow();
    const hash = await workers.hash('still works');
    await expect(workers.verify(hash, 'still works')).resolves.toBe(true);
  });

  it('runs tasks beyond its threads in turn', async () => {
    workers = new PasswordWorkers(1);
    const hashes = await Promise.all(['a1234567890', 'b1234567890', 'c1234567890'].map((p) => workers!.hash(p)));
    expect(new Set(hashes).size).toBe(3);
    await expect(workers.verify(hashes[1]!, 'b1234567890')).resolves.toBe(true);
  });
});

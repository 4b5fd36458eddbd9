import { CloseCode } from '@onair/protocol';
import { describe, expect, it } from 'vitest';
import { createLinkCheck } from './link-check.js';

function harness() {
  const shown: boolean[] = [];
  const answers: { resolve: (status: number) => void; reject: (err: Error) => void }[] = [];
  const check = createLinkCheck({
    notice: { show: () => shown.push(true), hide: () => shown.push(false) },
    askAccess: () => new Promise<number>((resolve, reject) => answers.push({ resolve, reject })),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { check, shown, answers, settle };
}

describe('link check', () => {
  it('shows the notice at once on the close codes that refuse the link for good', () => {
    for (const code of [CloseCode.unauthorized, CloseCode.tokenRotated, CloseCode.channelDeleted]) {
      const { check, shown, answers } = harness();
      check.closed(code, true);
      expect(shown, String(code)).toEqual([true]);
      expect(answers).toHaveLength(0);
    }
  });

  it('asks the server about a socket that never opened, and shows the notice on 401 or 404 only', async () => {
    for (const [status, expected] of [
      [401, [true]],
      [404, [true]],
      [204, []],
      [503, []],
      [429, []],
    ] as const) {
      const { check, shown, answers, settle } = harness();
      check.closed(1006, false);
      answers[0]!.resolve(status);
      await settle();
      expect(shown, String(status)).toEqual(expected);
    }
  });

  it('shows nothing when the server cannot be reached, or a line that had opened drops', async () => {
    const { check, shown, answers, settle } = harness();
    check.closed(1006, false);
    answers[0]!.reject(new Error('offline'));
    await settle();
    check.closed(1001, true);
    check.closed(1006, true);
    expect(answers).toHaveLength(1);
    expect(shown).toEqual([]);
  });

  it('asks once at a time, ignores an answer that comes after the line is back, and hides the notice then', async () => {
    const { check, shown, answers, settle } = harness();
    check.closed(1006, false);
    check.closed(1006, false);
    expect(answers).toHaveLength(1);
    check.connected();
    answers[0]!.resolve(401);
    await settle();
    expect(shown).toEqual([false]);
    check.closed(CloseCode.tokenRotated, true);
    check.connected();
    expect(shown).toEqual([false, true, false]);
  });
});

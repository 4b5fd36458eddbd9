import { describe, expect, it } from 'vitest';
import { actionResult, errorText, MESSAGE_CHARS, readHostMessage } from './graphic-wire.js';

describe('actionResult', () => {
  it('counts undefined, and anything that is not an object, as status 200', () => {
    expect(actionResult(undefined)).toEqual({ statusCode: 200 });
    expect(actionResult('done')).toEqual({ statusCode: 200 });
    expect(actionResult({})).toEqual({ statusCode: 200 });
  });

  it('keeps the status, its message and the current step, and nothing else', () => {
    const result = actionResult({ statusCode: 404, statusMessage: 'no such step', currentStep: 2, v_x: () => 1 });
    expect(result).toEqual({ statusCode: 404, statusMessage: 'no such step', currentStep: 2 });
  });
});

describe('readHostMessage', () => {
  it('reads results, failures and uncaught errors, with bounded messages', () => {
    expect(readHostMessage({ kind: 'result', id: 3, result: undefined })).toEqual({
      kind: 'result',
      id: 3,
      result: { statusCode: 200 },
    });
    const long = readHostMessage({ kind: 'failed', id: 4, message: 'x'.repeat(5000) });
    expect(long?.kind === 'failed' && long.message.length).toBe(MESSAGE_CHARS);
    expect(readHostMessage({ kind: 'uncaught', message: 'boom' })).toEqual({ kind: 'uncaught', message: 'boom' });
  });

  it('ignores anything else a graphic could post on the port', () => {
    for (const junk of [
      null,
      'result',
      42,
      { kind: 'result' },
      { kind: 'other', id: 1 },
      { id: '1', kind: 'failed' },
    ]) {
      expect(readHostMessage(junk)).toBeNull();
    }
  });
});

describe('errorText', () => {
  it('says what was thrown, whatever it is', () => {
    expect(errorText(new Error('no font'))).toBe('no font');
    expect(errorText('plain')).toBe('plain');
    expect(errorText({ code: 7 })).toBe('{"code":7}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(errorText(cyclic)).toBe('unknown error');
  });
});

import { describe, expect, it } from 'vitest';
import { withoutToken } from './outputs.js';

describe('withoutToken', () => {
  it('takes the token parameter out, wherever it stands, and keeps the rest', () => {
    const cases: [string, string][] = [
      ['https://a.example/assets/x.png?channel=ch_1&token=abc', 'https://a.example/assets/x.png?channel=ch_1'],
      ['/assets/x.png?token=abc&channel=ch_1', '/assets/x.png?channel=ch_1'],
      ['/assets/x.png?token=abc', '/assets/x.png'],
      ['/assets/x.png?a=1&token=abc#frag', '/assets/x.png?a=1#frag'],
      ['/a?a=1&TOKEN=abc&b=2', '/a?a=1&b=2'],
      ['/a?mytoken=keep', '/a?mytoken=keep'],
      ['https://cdn.example/crest.png', 'https://cdn.example/crest.png'],
    ];
    for (const [given, shown] of cases) expect(withoutToken(given), given).toBe(shown);
  });
});

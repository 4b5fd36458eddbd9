import { describe, expect, it } from 'vitest';
import { FIELD_PATH_PATTERN, FIELD_PATH_SOURCE, HEX_COLOR, NAME_PATTERN, WHOLE_PLACEHOLDER } from './rules.js';

describe('the shared rules', () => {
  it('takes names of 1–64 letters, digits and _, not starting with a digit', () => {
    for (const name of ['a', '_x', 'scoreA', 'a'.repeat(64)]) expect(NAME_PATTERN.test(name), name).toBe(true);
    for (const name of ['', '1a', 'a-b', 'a.b', 'é', 'a'.repeat(65)]) expect(NAME_PATTERN.test(name), name).toBe(false);
    expect(WHOLE_PLACEHOLDER.exec('{scoreA}')?.[1]).toBe('scoreA');
    expect(WHOLE_PLACEHOLDER.test('{1a}')).toBe(false);
  });

  it('takes colours as #rgb, #rgba, #rrggbb or #rrggbbaa', () => {
    for (const c of ['#fff', '#FFFa', '#101820', '#10182080']) expect(HEX_COLOR.test(c), c).toBe(true);
    for (const c of ['fff', '#ff', '#fffff', '#ggg', 'red']) expect(HEX_COLOR.test(c), c).toBe(false);
  });

  it('takes a field path of 1 to 8 names, and works as an HTML pattern (the v flag)', () => {
    const html = new RegExp(`^(?:${FIELD_PATH_SOURCE})$`, 'v');
    for (const path of ['home_score', 'game.home.score', 'a-b.c_d', Array(8).fill('x').join('.')]) {
      expect(FIELD_PATH_PATTERN.test(path), path).toBe(true);
      expect(html.test(path), path).toBe(true);
    }
    for (const path of ['', 'a..b', '.a', 'a.', 'a b', Array(9).fill('x').join('.'), 'x'.repeat(65)]) {
      expect(FIELD_PATH_PATTERN.test(path), path).toBe(false);
      expect(html.test(path), path).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { graphicData } from './graphic-data.js';

describe('graphicData', () => {
  const values: Record<string, string | number | boolean | null> = {
    name: 'Ada',
    team_name: 'Lions',
    team_score: 3,
    live: false,
    empty: null,
  };
  const value = (input: string) => values[input];

  it('puts each input back at its path, nested objects included, keeping the types', () => {
    const mapping = [
      { input: 'name', path: ['name'] },
      { input: 'team_name', path: ['team', 'name'] },
      { input: 'team_score', path: ['team', 'score'] },
      { input: 'live', path: ['live'] },
    ];
    expect(graphicData(mapping, value)).toEqual({ name: 'Ada', team: { name: 'Lions', score: 3 }, live: false });
  });

  it('leaves out inputs without a value, so the graphic keeps its own default', () => {
    const mapping = [
      { input: 'empty', path: ['empty'] },
      { input: 'unknown', path: ['x', 'y'] },
    ];
    expect(graphicData(mapping, value)).toEqual({});
  });

  it('never writes through a prototype key', () => {
    const mapping = [
      { input: 'name', path: ['__proto__', 'polluted'] },
      { input: 'name', path: ['constructor', 'prototype'] },
    ];
    const data = graphicData(mapping, value);
    expect(data).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

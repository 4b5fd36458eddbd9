import { describe, expect, it } from 'vitest';
import { clockPhase } from './cluster-node.js';

describe('clockPhase', () => {
  it('gives each node id its own phase, the same every time, under half a frame', () => {
    const ids = ['node-a', 'node-b', 'node-c', 'web-1:8080', 'web-2:8080'];
    const phases = ids.map(clockPhase);
    expect(new Set(phases).size).toBe(ids.length);
    expect(ids.map(clockPhase)).toEqual(phases);
    for (const p of phases) expect(p >= 0 && p < 0.5).toBe(true);
  });
});

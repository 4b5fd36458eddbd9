import { describe, expect, it } from 'vitest';
import { fitStage, fitTransform } from './viewport-fit.js';

describe('fitStage', () => {
  it('fills a viewport of the same aspect', () => {
    expect(fitStage(1920, 1080, 1280, 720)).toEqual({ scale: 2 / 3, x: 0, y: 0 });
  });

  it('letterboxes a taller viewport, centred', () => {
    expect(fitStage(1920, 1080, 960, 1000)).toEqual({ scale: 0.5, x: 0, y: 230 });
  });

  it('pillarboxes a wider viewport, centred', () => {
    expect(fitStage(1920, 1080, 3000, 1080)).toEqual({ scale: 1, x: 540, y: 0 });
  });

  it('stays at 1:1 in a zero-sized viewport', () => {
    expect(fitStage(1920, 1080, 0, 0)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(fitTransform({ scale: 1, x: 0, y: 0 })).toBe('translate(0px, 0px) scale(1)');
  });
});

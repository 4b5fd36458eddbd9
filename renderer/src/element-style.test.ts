import { describe, expect, it } from 'vitest';
import {
  baseOpacity,
  baseTransform,
  borderCss,
  fillCss,
  fontFamilyCss,
  fontWeight,
  num,
  shadowCss,
} from './element-style.js';
import { createSceneValues } from './scene-values.js';
import { sceneView } from './test-scenes.js';

const values = createSceneValues(
  sceneView('s', { inputs: [{ name: 'team', type: 'color', label: 'Team', default: '#000000' }] }),
  { inputs: { team: '#ff0000' }, overrides: {}, clocks: {}, serverNow: 0 },
);

describe('element styles', () => {
  it('places an element by transform, with rotation and scale about its centre', () => {
    expect(baseTransform({ x: 10, y: 20 })).toBe('translate(10px, 20px)');
    expect(baseTransform({ x: 0.5, y: -3, rotation: 15, scale: 1.25 })).toBe(
      'translate(0.5px, -3px) rotate(15deg) scale(1.25)',
    );
    expect(baseTransform({ x: 0, y: 0, scale: 1, rotation: 0 })).toBe('translate(0px, 0px)');
  });

  it('clamps opacity to 0–1, default 1', () => {
    expect(baseOpacity({})).toBe(1);
    expect(baseOpacity({ opacity: 0.4 })).toBe(0.4);
    expect(baseOpacity({ opacity: 3 })).toBe(1);
  });

  it('fills with a colour, an input colour, or a linear gradient', () => {
    expect(fillCss('#123', values)).toBe('#123');
    expect(fillCss('{team}', values)).toBe('#ff0000');
    expect(fillCss(undefined, values)).toBe('transparent');
    const gradient = {
      gradient: {
        angle: 90,
        stops: [
          { at: 1, color: '#000' },
          { at: 0, color: '{team}' },
        ],
      },
    };
    expect(fillCss(gradient, values)).toBe('linear-gradient(90deg, #ff0000 0%, #000 100%)');
    expect(fillCss({ gradient: { angle: 0, stops: [{ at: 0.5, color: '#fff' }] } }, values)).toBe(
      'linear-gradient(0deg, #fff 50%, #fff 50%)',
    );
  });

  it('draws borders and shadows, or none', () => {
    expect(borderCss({ width: 2, color: '{team}' }, values)).toBe('2px solid #ff0000');
    expect(borderCss({ width: 0, color: '#fff' }, values)).toBe('none');
    expect(borderCss(undefined, values)).toBe('none');
    expect(shadowCss({ x: 0, y: 4, blur: 12, color: '#00000080' }, values)).toBe('0px 4px 12px #00000080');
    expect(shadowCss(undefined, values)).toBe('none');
  });

  it('names the bundled face first, with a generic fallback of its kind', () => {
    expect(fontFamilyCss('Oswald')).toBe('"Oswald", sans-serif');
    expect(fontFamilyCss('Roboto Mono')).toBe('"Roboto Mono", monospace');
    expect(fontFamilyCss(undefined)).toBe('"Inter", sans-serif');
    const sha = '7d'.repeat(32);
    expect(fontFamilyCss(`/assets/${sha}.woff2`)).toBe(`"onair-asset-${sha}", sans-serif`);
  });

  it('rounds weights to the hundreds CSS matches faces by', () => {
    expect(fontWeight({})).toBe(400);
    expect(fontWeight({ fontWeight: 650 })).toBe(700);
    expect(fontWeight({ fontWeight: 50 })).toBe(100);
    expect(fontWeight({ fontWeight: 1000 })).toBe(900);
  });

  it('prints numbers CSS accepts', () => {
    expect(num(1e-7)).toBe('0');
    expect(num(Number.NaN)).toBe('0');
    expect(num(1 / 3)).toBe('0.3333');
  });
});

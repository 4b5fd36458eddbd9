import type { Template } from './template.js';
import { PANEL_SHADOW, fadeInOut, verticalGradient } from './styles.js';

/**
 * A big countdown in the middle of the stage (docs/scenes.md, "Templates"): a label such as KICK-OFF IN over
 * an accent rule and a clock counting down from 5:00 that stops at 0:00. 640–1280 × 380–700 px.
 */
export const countdown: Template = {
  id: 'countdown',
  name: 'Countdown',
  definition: {
    version: 1,
    layer: 15,
    inputs: [
      { name: 'label', type: 'text', label: 'Label', scope: 'item', default: 'KICK-OFF IN' },
      { name: 'countdown', type: 'clock', label: 'Countdown', default: 300_000, direction: 'down', stopAt: 0 },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      {
        type: 'box',
        name: 'panel',
        x: 640,
        y: 380,
        width: 640,
        height: 320,
        fill: verticalGradient('#1f2430', '#0e1117'),
        radius: 6,
        shadow: PANEL_SHADOW,
      },
      {
        type: 'text',
        name: 'labelText',
        x: 672,
        y: 410,
        width: 576,
        height: 64,
        text: '{label}',
        fontFamily: 'Oswald',
        fontWeight: 500,
        fontSize: 42,
        letterSpacing: 8,
        uppercase: true,
        shrink: true,
        color: '#ffffff',
        align: 'center',
        delayMs: 100,
      },
      { type: 'box', name: 'rule', x: 900, y: 486, width: 120, height: 6, fill: '{accent}', delayMs: 180 },
      {
        type: 'clock',
        name: 'clock',
        x: 672,
        y: 500,
        width: 576,
        height: 170,
        clock: 'countdown',
        format: 'm:ss',
        fontFamily: 'Barlow Condensed',
        fontWeight: 600,
        fontSize: 168,
        color: '#ffffff',
        align: 'center',
        delayMs: 240,
      },
    ],
    transitions: fadeInOut(500),
    triggers: [],
  },
};

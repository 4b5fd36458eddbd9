import type { VisibleWhen } from '@onair/protocol';
import type { Template } from './template.js';
import { verticalGradient } from './styles.js';

/** Anchored at the bottom right of the title-safe area, on the lower third's bottom edge, clear of its 96–910. */
const RIGHT = 1824;
const BOTTOM = 978;
const HEIGHT = 86;
const TOP = BOTTOM - HEIGHT;
const PLATE = { x: RIGHT - 10 - 240, width: 240 };
/** The line's panel: 30 px before the text, 24 after; the text at most 360 px (then it shrinks, then is cut). */
const LINE = { width: 360, minWidth: 80, before: 30, after: 24 };
const WITH_LINE: VisibleWhen = { input: 'sponsorLine', notEquals: '' };

/**
 * A sponsor's logo in the bottom-right corner (docs/scenes.md, "Templates"): an accent bar, the logo on a light
 * plate (a sponsor's logo is drawn for a white page), and before it an optional line such as "PRESENTED BY" on a
 * dark panel that follows the text's width; an empty line leaves the plate alone. Wiped in from the right edge
 * and back into it. At most 1160–1824 × 892–978 px: beside the lower third, under the score bars.
 */
export const sponsorBug: Template = {
  id: 'sponsor-bug',
  name: 'Sponsor bug',
  definition: {
    version: 1,
    layer: 25,
    inputs: [
      { name: 'sponsorLogo', type: 'asset', label: 'Sponsor logo (from the asset library)', default: null },
      {
        name: 'sponsorLine',
        type: 'text',
        label: 'Line before the logo (empty: none)',
        scope: 'item',
        default: 'Presented by',
      },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      {
        type: 'box',
        name: 'linePanel',
        x: PLATE.x - LINE.before - LINE.width - LINE.after,
        y: TOP,
        width: LINE.before + LINE.width + LINE.after,
        height: HEIGHT,
        fill: {
          gradient: {
            angle: 90,
            stops: [
              { at: 0, color: '#232936' },
              { at: 1, color: '#12151b' },
            ],
          },
        },
        shadow: { x: 0, y: 8, blur: 24, color: '#00000059' },
        followWidth: 'lineText',
        visibleWhen: WITH_LINE,
        delayMs: 200,
      },
      {
        type: 'text',
        name: 'lineText',
        x: PLATE.x - LINE.after - LINE.width,
        y: TOP,
        width: LINE.width,
        height: HEIGHT,
        minWidth: LINE.minWidth,
        text: '{sponsorLine}',
        fontFamily: 'Barlow Condensed',
        fontWeight: 600,
        fontSize: 32,
        letterSpacing: 2,
        uppercase: true,
        shrink: true,
        color: '#e6e9ee',
        align: 'right',
        visibleWhen: WITH_LINE,
        delayMs: 260,
      },
      {
        type: 'box',
        name: 'logoPlate',
        x: PLATE.x,
        y: TOP,
        width: PLATE.width,
        height: HEIGHT,
        fill: verticalGradient('#ffffff', '#e9ecf1'),
        shadow: { x: 0, y: 8, blur: 24, color: '#00000059' },
        delayMs: 80,
      },
      {
        type: 'image',
        name: 'logoImage',
        x: PLATE.x + 20,
        y: TOP + 12,
        width: PLATE.width - 40,
        height: HEIGHT - 24,
        src: '{sponsorLogo}',
        fit: 'contain',
        delayMs: 140,
      },
      { type: 'box', name: 'accentBar', x: RIGHT - 10, y: TOP, width: 10, height: HEIGHT, fill: '{accent}' },
    ],
    transitions: {
      in: { type: 'wipe', from: 'right', durationMs: 450, easing: 'ease-out' },
      out: { type: 'wipe', from: 'left', durationMs: 350, easing: 'ease-in' },
    },
    triggers: [],
  },
};

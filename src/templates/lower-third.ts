import type { SceneElement, VisibleWhen } from '@onair/protocol';
import type { Template } from './template.js';

/** The strap's bottom edge, one line or two: a guest's strap does not jump when the next has no title. */
const BOTTOM = 978;
const NAME_HEIGHT = 86;
const TITLE_HEIGHT = 50;
const TWO_LINES: VisibleWhen = { input: 'title', notEquals: '' };
const ONE_LINE: VisibleWhen = { input: 'title', equals: '' };

/** The accent bar, the dark name panel and the name, at `top`, drawn while `when` holds. */
function nameLine(top: number, when: VisibleWhen, suffix: string): SceneElement[] {
  return [
    {
      type: 'box',
      name: `accentBar${suffix}`,
      x: 96,
      y: top,
      width: 10,
      height: BOTTOM - top,
      fill: '{accent}',
      visibleWhen: when,
    },
    {
      type: 'box',
      name: `namePanel${suffix}`,
      x: 106,
      y: top,
      width: 804,
      height: NAME_HEIGHT,
      fill: {
        gradient: {
          angle: 90,
          stops: [
            { at: 0, color: '#12151b' },
            { at: 1, color: '#232936' },
          ],
        },
      },
      shadow: { x: 0, y: 8, blur: 24, color: '#00000059' },
      followWidth: `nameText${suffix}`,
      visibleWhen: when,
      delayMs: 80,
    },
    {
      type: 'text',
      name: `nameText${suffix}`,
      x: 136,
      y: top,
      width: 750,
      height: NAME_HEIGHT,
      minWidth: 236,
      text: '{name}',
      fontFamily: 'Oswald',
      fontWeight: 600,
      fontSize: 54,
      letterSpacing: 1,
      uppercase: true,
      shrink: true,
      color: '#ffffff',
      align: 'left',
      visibleWhen: when,
      delayMs: 140,
    },
  ];
}

const TITLE_TOP = BOTTOM - TITLE_HEIGHT;

/**
 * A name and title strap (docs/scenes.md, "Templates"): an accent bar, the name in capitals on a dark panel
 * and the title on a light one, wiped on piece by piece. Each panel follows its text (between 290 and 804 px
 * for the name, 290 and 620 for the title); a name too long shrinks to 75 % and is then cut with an ellipsis.
 * With an empty title it is one line: no title panel, the name panel on the same bottom edge as the two-line
 * strap's. At most 96–910 × 842–978 px: inside the title-safe area of a 1920×1080 stage.
 */
export const lowerThird: Template = {
  id: 'lower-third',
  name: 'Lower third',
  definition: {
    version: 1,
    layer: 20,
    inputs: [
      { name: 'name', type: 'text', label: 'Name', scope: 'item', default: 'Name Surname' },
      { name: 'title', type: 'text', label: 'Title (empty: one line)', scope: 'item', default: 'Title' },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      ...nameLine(TITLE_TOP - NAME_HEIGHT, TWO_LINES, ''),
      {
        type: 'box',
        name: 'titlePanel',
        x: 106,
        y: TITLE_TOP,
        width: 620,
        height: TITLE_HEIGHT,
        fill: '#f3f4f6',
        shadow: { x: 0, y: 6, blur: 18, color: '#00000040' },
        followWidth: 'titleText',
        visibleWhen: TWO_LINES,
        delayMs: 200,
      },
      {
        type: 'text',
        name: 'titleText',
        x: 136,
        y: TITLE_TOP,
        width: 570,
        height: TITLE_HEIGHT,
        minWidth: 240,
        text: '{title}',
        fontFamily: 'Inter',
        fontWeight: 600,
        fontSize: 26,
        shrink: true,
        color: '#12151b',
        align: 'left',
        visibleWhen: TWO_LINES,
        delayMs: 260,
      },
      ...nameLine(BOTTOM - NAME_HEIGHT, ONE_LINE, 'OneLine'),
    ],
    transitions: {
      in: { type: 'wipe', from: 'left', durationMs: 450, easing: 'ease-out' },
      out: { type: 'wipe', from: 'right', durationMs: 350, easing: 'ease-in' },
    },
    triggers: [],
  },
};

import type { Template } from './template.js';

/**
 * A name and title strap (docs/scenes.md, "Templates"): an accent bar, the name in capitals on a dark panel
 * and the title on a light one, wiped on piece by piece. Each panel follows its text (between 290 and 804 px
 * for the name, 290 and 620 for the title); a name too long shrinks to 75 % and is then cut with an ellipsis.
 * At most 96–910 × 842–978 px: inside the title-safe area of a 1920×1080 stage.
 */
export const lowerThird: Template = {
  id: 'lower-third',
  name: 'Lower third',
  definition: {
    version: 1,
    layer: 20,
    inputs: [
      { name: 'name', type: 'text', label: 'Name', scope: 'item', default: 'Name Surname' },
      { name: 'title', type: 'text', label: 'Title', scope: 'item', default: 'Title' },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      { type: 'box', name: 'accentBar', x: 96, y: 842, width: 10, height: 136, fill: '{accent}' },
      {
        type: 'box',
        name: 'namePanel',
        x: 106,
        y: 842,
        width: 804,
        height: 86,
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
        followWidth: 'nameText',
        delayMs: 80,
      },
      {
        type: 'text',
        name: 'nameText',
        x: 136,
        y: 842,
        width: 750,
        height: 86,
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
        delayMs: 140,
      },
      {
        type: 'box',
        name: 'titlePanel',
        x: 106,
        y: 928,
        width: 620,
        height: 50,
        fill: '#f3f4f6',
        shadow: { x: 0, y: 6, blur: 18, color: '#00000040' },
        followWidth: 'titleText',
        delayMs: 200,
      },
      {
        type: 'text',
        name: 'titleText',
        x: 136,
        y: 928,
        width: 570,
        height: 50,
        minWidth: 240,
        text: '{title}',
        fontFamily: 'Inter',
        fontWeight: 600,
        fontSize: 26,
        shrink: true,
        color: '#12151b',
        align: 'left',
        delayMs: 260,
      },
    ],
    transitions: {
      in: { type: 'wipe', from: 'left', durationMs: 450, easing: 'ease-out' },
      out: { type: 'wipe', from: 'right', durationMs: 350, easing: 'ease-in' },
    },
    triggers: [],
  },
};

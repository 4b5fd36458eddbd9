import type { Template } from './template.js';

/** A name and title strap in the lower third. */
export const lowerThird: Template = {
  id: 'lower-third',
  name: 'Lower third',
  definition: {
    inputs: [
      { name: 'name', type: 'text', label: 'Name', default: 'Name Surname' },
      { name: 'title', type: 'text', label: 'Title', default: 'Title' },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    triggers: [],
    layers: [
      { type: 'rect', x: 120, y: 820, width: 12, height: 130, color: '{accent}' },
      { type: 'rect', x: 132, y: 820, width: 760, height: 80, color: '#101820', opacity: 0.92 },
      {
        type: 'text',
        x: 160,
        y: 820,
        width: 720,
        height: 80,
        text: '{name}',
        fontSize: 46,
        fontWeight: 700,
        color: '#ffffff',
        align: 'left',
      },
      { type: 'rect', x: 132, y: 900, width: 760, height: 50, color: '#f1f1f1', opacity: 0.95 },
      {
        type: 'text',
        x: 160,
        y: 900,
        width: 720,
        height: 50,
        text: '{title}',
        fontSize: 30,
        fontWeight: 500,
        color: '#101820',
        align: 'left',
      },
    ],
  },
};

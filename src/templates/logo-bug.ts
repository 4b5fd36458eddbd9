import type { Template } from './template.js';
import { fadeInOut } from './styles.js';

/**
 * A channel or sponsor logo in the top-right corner (docs/scenes.md, "Templates"), slightly see-through as
 * a station "dog" is. It draws nothing until `logo` is set to an image URL. 1604–1824 × 60–170 px.
 */
export const logoBug: Template = {
  id: 'logo-bug',
  name: 'Logo bug',
  definition: {
    version: 1,
    layer: 30,
    inputs: [{ name: 'logo', type: 'image', label: 'Logo image URL', default: null }],
    elements: [
      {
        type: 'image',
        name: 'logoImage',
        x: 1604,
        y: 60,
        width: 220,
        height: 110,
        src: '{logo}',
        fit: 'contain',
        opacity: 0.9,
      },
    ],
    transitions: fadeInOut(600),
    triggers: [],
  },
};

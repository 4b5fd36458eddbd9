import type { GroupElement } from '@onair/protocol';
import type { Template } from './template.js';

const teamCard = (side: 'home' | 'away', x: number, delayMs: number): GroupElement => ({
  type: 'group',
  name: `${side}Card`,
  x,
  y: 350,
  width: 690,
  height: 380,
  delayMs,
  children: [
    {
      type: 'box',
      x: 0,
      y: 0,
      width: 690,
      height: 380,
      fill: {
        gradient: {
          angle: 180,
          stops: [
            { at: 0, color: '#1f2430' },
            { at: 1, color: '#10131a' },
          ],
        },
      },
      shadow: { x: 0, y: 16, blur: 40, color: '#00000080' },
    },
    { type: 'box', x: 0, y: 0, width: 690, height: 12, fill: `{${side}Color}` },
    {
      type: 'text',
      x: 30,
      y: 36,
      width: 630,
      height: 90,
      text: `{${side}}`,
      fontFamily: 'Barlow Condensed',
      fontWeight: 700,
      fontSize: 72,
      letterSpacing: 1,
      uppercase: true,
      shrink: true,
      color: '#ffffff',
      align: 'center',
    },
    {
      type: 'text',
      x: 30,
      y: 130,
      width: 630,
      height: 220,
      text: side === 'home' ? '{scoreA}' : '{scoreB}',
      fontFamily: 'Barlow Condensed',
      fontWeight: 700,
      fontSize: 200,
      color: '#ffffff',
      align: 'center',
    },
  ],
});

/**
 * A full-screen final score card (docs/scenes.md, "Templates"): a dimmed backdrop, a headline tab, one card
 * per team under a stripe of its colour, and a subtitle. It shares the scoreboard's inputs, so it shows the
 * live names, colours and scores. Its text stays in 260–1660 × 250–810 px, inside the title-safe area.
 */
export const finalScore: Template = {
  id: 'final-score',
  name: 'Final score',
  definition: {
    version: 1,
    layer: 5,
    inputs: [
      { name: 'home', type: 'text', label: 'Home team', default: 'HOME' },
      { name: 'away', type: 'text', label: 'Away team', default: 'AWAY' },
      { name: 'scoreA', type: 'number', label: 'Home score', default: 0 },
      { name: 'scoreB', type: 'number', label: 'Away score', default: 0 },
      { name: 'homeColor', type: 'color', label: 'Home colour', default: '#c8102e' },
      { name: 'awayColor', type: 'color', label: 'Away colour', default: '#1d428a' },
      { name: 'headline', type: 'text', label: 'Headline', default: 'FINAL' },
      { name: 'subtitle', type: 'text', label: 'Subtitle (competition, venue…)', default: '' },
    ],
    elements: [
      {
        type: 'box',
        name: 'backdrop',
        x: 0,
        y: 0,
        width: 1920,
        height: 1080,
        fill: {
          gradient: {
            angle: 180,
            stops: [
              { at: 0, color: '#0b0e14b3' },
              { at: 1, color: '#05070be6' },
            ],
          },
        },
      },
      {
        type: 'group',
        name: 'headlineTab',
        x: 810,
        y: 250,
        width: 300,
        height: 72,
        delayMs: 100,
        children: [
          { type: 'box', x: 0, y: 0, width: 300, height: 72, fill: '#ffffff' },
          {
            type: 'text',
            x: 16,
            y: 0,
            width: 268,
            height: 72,
            text: '{headline}',
            fontFamily: 'Oswald',
            fontWeight: 600,
            fontSize: 44,
            letterSpacing: 4,
            uppercase: true,
            shrink: true,
            color: '#0b0e14',
            align: 'center',
          },
        ],
      },
      teamCard('home', 260, 200),
      teamCard('away', 970, 300),
      {
        type: 'text',
        name: 'subtitleText',
        x: 260,
        y: 760,
        width: 1400,
        height: 50,
        text: '{subtitle}',
        fontFamily: 'Inter',
        fontWeight: 500,
        fontSize: 28,
        letterSpacing: 3,
        uppercase: true,
        shrink: true,
        color: '#c5ccd6',
        align: 'center',
        delayMs: 400,
      },
    ],
    transitions: {
      in: { type: 'fade', durationMs: 600, easing: 'ease-out' },
      out: { type: 'fade', durationMs: 400, easing: 'ease-in' },
    },
    triggers: [],
  },
};

import type { SceneElement, TextElement } from '@onair/protocol';
import type { Template } from './template.js';
import { PANEL_SHADOW, fadeInOut, verticalGradient } from './styles.js';

/** The title-safe area of a 1920 × 1080 stage: the whole table stays inside it. */
const SAFE = { left: 96, right: 1824, top: 54, bottom: 1026 };
const WIDTH = SAFE.right - SAFE.left;
const HEADER_Y = 168;
const ROWS_Y = 216;
/** Ten rows of 80 px end at 1016, inside the safe area. */
const ROW = { height: 72, step: 80, max: 10 };

/** The figures' columns, right-aligned from the right edge: played, won, drawn, lost, points. */
const FIGURES = [
  { name: 'played', head: 'P', x: 1080 },
  { name: 'won', head: 'W', x: 1220 },
  { name: 'drawn', head: 'D', x: 1360 },
  { name: 'lost', head: 'L', x: 1500 },
  { name: 'pts', head: 'PTS', x: 1640 },
] as const;
const FIGURE_WIDTH = 120;

const cell = (over: Partial<TextElement> & Pick<TextElement, 'x' | 'width' | 'text'>): TextElement => ({
  type: 'text',
  y: 0,
  height: ROW.height,
  fontFamily: 'Barlow Condensed',
  fontWeight: 600,
  fontSize: 40,
  color: '#e6e9ee',
  ...over,
});

const head = (x: number, width: number, text: string, align: TextElement['align']): SceneElement =>
  cell({
    x,
    y: HEADER_Y,
    width,
    height: 40,
    text,
    align,
    fontSize: 26,
    letterSpacing: 2,
    color: '#9aa3b2',
    delayMs: 200,
  });

/**
 * A league table or results, full screen (docs/scenes.md, "Templates"): a title, column headers and up to ten rows
 * from the `standings` list (position, team, played, won, drawn, lost, points), every other row shaded. Faded in
 * and out. Inside the title-safe area, 96–1824 × 54–1026.
 */
export const standingsTable: Template = {
  id: 'standings-table',
  name: 'Standings table',
  definition: {
    version: 1,
    layer: 40,
    inputs: [
      { name: 'tableTitle', type: 'text', label: 'Title', default: 'League table' },
      {
        name: 'standings',
        type: 'list',
        label: 'Rows',
        default: [],
        columns: [
          { name: 'pos', type: 'number' },
          { name: 'team', type: 'text' },
          ...FIGURES.map((f) => ({ name: f.name, type: 'number' as const })),
        ],
        maxRows: ROW.max,
      },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      {
        type: 'box',
        x: SAFE.left,
        y: SAFE.top,
        width: WIDTH,
        height: SAFE.bottom - SAFE.top,
        fill: verticalGradient('#161a22f2', '#0b0d12f2'),
        radius: 8,
        shadow: PANEL_SHADOW,
      },
      { type: 'box', x: SAFE.left, y: SAFE.top, width: 12, height: 96, fill: '{accent}', delayMs: 80 },
      cell({
        x: SAFE.left + 48,
        y: SAFE.top + 8,
        width: 1200,
        height: 80,
        text: '{tableTitle}',
        fontSize: 56,
        delayMs: 120,
      }),
      head(SAFE.left + 24, 80, '#', 'center'),
      head(SAFE.left + 128, 800, 'TEAM', 'left'),
      ...FIGURES.map((f) => head(f.x, FIGURE_WIDTH, f.head, 'right')),
      {
        type: 'rows',
        list: 'standings',
        x: SAFE.left,
        y: ROWS_Y,
        width: WIDTH,
        height: ROW.height,
        rowHeight: ROW.step,
        delayMs: 280,
        children: [
          { type: 'box', x: 16, y: 0, width: WIDTH - 32, height: ROW.height, fill: '#ffffff0f', radius: 4 },
          cell({ x: 24, width: 80, text: '{pos}', align: 'center', color: '#9aa3b2' }),
          cell({ x: 128, width: 800, text: '{team}', uppercase: true }),
          ...FIGURES.map((f) => cell({ x: f.x - SAFE.left, width: FIGURE_WIDTH, text: `{${f.name}}`, align: 'right' })),
        ],
      },
    ],
    transitions: fadeInOut(500),
    triggers: [],
  },
};

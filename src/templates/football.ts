import type { GroupElement, SceneElement, VisibleWhen } from '@onair/protocol';
import type { Template } from './template.js';
import { verticalGradient } from './styles.js';

/** The bar: 96–1136 × 60–124 px, at the top left of the title-safe area like the scoreboard (clear of the logo bug). */
const TOP = 60;
const HEIGHT = 64;
const LEFT = 96;
/** Where the two teams mirror about: the middle of the score boxes. */
const MIRROR = 1024;
const FONT = 'Barlow Condensed';
const AMBER = '#ffc629';
const CREST = { x: 114, size: 48, logo: 36 };
const NAME = { x: 170, width: 220 };
const CARD = { x: 394, width: 10, height: 16, gap: 4 };
const SCORE = { x: 444, width: 66 };
const INFO = { x: 1164 - 236, width: 236 };

type Side = 'home' | 'away';

/** Where a team's parts sit: home reads from the left edge in, away mirrors it about the score boxes. */
function layout(side: Side) {
  const home = side === 'home';
  const mirror = (x: number, width: number) => (home ? x : MIRROR - x - width);
  return { home, mirror, score: home ? 'scoreA' : 'scoreB', delayMs: home ? 60 : 120 };
}

const scoreBox = (side: Side): GroupElement => {
  const { mirror, score, delayMs } = layout(side);
  const box = { x: 0, y: 0, width: SCORE.width, height: HEIGHT } as const;
  return {
    type: 'group',
    name: `${score}Box`,
    x: mirror(SCORE.x, SCORE.width),
    y: TOP,
    ...{ width: SCORE.width, height: HEIGHT },
    delayMs: delayMs + 60,
    children: [
      { type: 'box', name: `${score}Panel`, ...box, fill: verticalGradient('#ffffff', '#dfe3e9') },
      {
        type: 'text',
        name: `${score}Digits`,
        ...box,
        text: `{${score}}`,
        fontFamily: FONT,
        fontWeight: 700,
        fontSize: 50,
        color: '#12151b',
        align: 'center',
      },
    ],
  };
};

/** A neutral disc ringed in the team's colour, the crest over it: an unset crest leaves the disc alone. */
const crest = (side: Side): GroupElement => {
  const { mirror, delayMs } = layout(side);
  const inset = (CREST.size - CREST.logo) / 2;
  return {
    type: 'group',
    name: `${side}CrestBadge`,
    x: mirror(CREST.x, CREST.size),
    y: TOP + (HEIGHT - CREST.size) / 2,
    width: CREST.size,
    height: CREST.size,
    delayMs,
    children: [
      {
        type: 'box',
        name: `${side}CrestDisc`,
        x: 0,
        y: 0,
        width: CREST.size,
        height: CREST.size,
        radius: CREST.size / 2,
        fill: verticalGradient('#3a4252', '#1c212b'),
        border: { width: 3, color: `{${side}Color}` },
      },
      {
        type: 'image',
        name: `${side}Crest`,
        x: inset,
        y: inset,
        width: CREST.logo,
        height: CREST.logo,
        src: `{${side}Crest}`,
        fit: 'contain',
      },
    ],
  };
};

/** The full name, or the three-letter name in its place while one is set. */
const names = (side: Side): SceneElement[] => {
  const { home, mirror, delayMs } = layout(side);
  const short = `${side}Short`;
  const text = {
    type: 'text',
    x: mirror(NAME.x, NAME.width),
    y: TOP,
    width: NAME.width,
    height: HEIGHT,
    fontFamily: FONT,
    fontWeight: 600,
    uppercase: true,
    shrink: true,
    color: '#ffffff',
    align: home ? 'left' : 'right',
    delayMs,
  } as const;
  const full: VisibleWhen = { input: short, equals: '' };
  const shortSet: VisibleWhen = { input: short, notEquals: '' };
  return [
    { ...text, name: `${side}Name`, text: `{${side}}`, fontSize: 34, letterSpacing: 1, visibleWhen: full },
    { ...text, name: `${side}ShortName`, text: `{${short}}`, fontSize: 40, letterSpacing: 3, visibleWhen: shortSet },
  ];
};

/** Up to three red cards beside the score, the first nearest it: card k shows from the k-th red card. */
const redCards = (side: Side): GroupElement => {
  const { home, mirror, delayMs } = layout(side);
  const width = 3 * CARD.width + 2 * CARD.gap;
  const input = `${side}Reds`;
  const cards = Array.from({ length: 3 }, (_, i): SceneElement => {
    const x = home ? width - CARD.width - i * (CARD.width + CARD.gap) : i * (CARD.width + CARD.gap);
    return {
      type: 'box',
      name: `${side}Red${i + 1}`,
      x,
      y: 0,
      width: CARD.width,
      height: CARD.height,
      radius: 2,
      fill: verticalGradient('#f0303a', '#c4101c'),
      visibleWhen: { input, atLeast: i + 1 },
    };
  });
  return {
    type: 'group',
    name: `${side}RedCards`,
    x: mirror(CARD.x, width),
    y: TOP + (HEIGHT - CARD.height) / 2,
    width,
    height: CARD.height,
    delayMs,
    children: cards,
  };
};

const team = (side: Side): SceneElement[] => {
  const { mirror, delayMs } = layout(side);
  return [
    {
      type: 'box',
      name: `${side}Stripe`,
      x: mirror(LEFT, 8),
      y: TOP,
      width: 8,
      height: HEIGHT,
      fill: `{${side}Color}`,
      delayMs,
    },
    crest(side),
    ...names(side),
    redCards(side),
    scoreBox(side),
  ];
};

/** The half and the match clock on a darker panel, the stoppage time (`+3`) on a tab hanging under the clock. */
const info: SceneElement[] = [
  {
    type: 'box',
    name: 'infoPanel',
    x: INFO.x,
    y: TOP,
    width: INFO.width,
    height: HEIGHT,
    fill: '#0b0d12',
    delayMs: 180,
  },
  {
    type: 'clock',
    name: 'half',
    x: INFO.x + 8,
    y: TOP,
    width: 88,
    height: HEIGHT,
    clock: 'matchClock',
    format: 'period',
    fontFamily: FONT,
    fontWeight: 600,
    fontSize: 22,
    letterSpacing: 1,
    uppercase: true,
    color: '#c5ccd6',
    align: 'center',
    delayMs: 180,
  },
  { type: 'box', name: 'divider', x: INFO.x + 102, y: TOP + 16, width: 2, height: 32, fill: '#ffffff33', delayMs: 180 },
  {
    type: 'clock',
    name: 'clock',
    x: INFO.x + 106,
    y: TOP,
    width: 122,
    height: HEIGHT,
    clock: 'matchClock',
    format: 'm:ss',
    fontFamily: FONT,
    fontWeight: 600,
    fontSize: 44,
    color: '#ffffff',
    align: 'center',
    delayMs: 180,
  },
  {
    type: 'group',
    name: 'stoppage',
    x: INFO.x + 131,
    y: TOP + HEIGHT,
    width: 72,
    height: 30,
    visibleWhen: { input: 'stoppage', atLeast: 1 },
    delayMs: 240,
    children: [
      { type: 'box', name: 'stoppagePanel', x: 0, y: 0, width: 72, height: 30, fill: AMBER, radius: 0 },
      {
        type: 'text',
        name: 'stoppageText',
        x: 0,
        y: 0,
        width: 72,
        height: 30,
        text: '+{stoppage}',
        fontFamily: FONT,
        fontWeight: 700,
        fontSize: 26,
        color: '#12151b',
        align: 'center',
      },
    ],
  },
];

/**
 * A football score bug in the top-left corner (docs/scenes.md, "Templates"): each team's stripe, its crest on a
 * disc ringed in its colour (the disc alone while no crest is set), its name in capitals (the three-letter name in
 * its place while one is set), up to three red cards and a white score box that pulses on a change (never faded);
 * then the half and the match clock counting up from 0:00, stopping at 45:00 and at 90:00, and the stoppage time
 * (`+3`) on a tab under the clock. 96–1164 × 60–154 px, in title safe.
 */
export const footballScoreboard: Template = {
  id: 'football-scoreboard',
  name: 'Football scoreboard',
  definition: {
    version: 1,
    layer: 10,
    inputs: [
      { name: 'home', type: 'text', label: 'Home team', default: 'HOME' },
      { name: 'away', type: 'text', label: 'Away team', default: 'AWAY' },
      { name: 'homeShort', type: 'text', label: 'Home short name (MUN; empty: the full name)', default: '' },
      { name: 'awayShort', type: 'text', label: 'Away short name (LIV; empty: the full name)', default: '' },
      { name: 'scoreA', type: 'number', label: 'Home score', default: 0 },
      { name: 'scoreB', type: 'number', label: 'Away score', default: 0 },
      { name: 'homeColor', type: 'color', label: 'Home colour', default: '#c8102e' },
      { name: 'awayColor', type: 'color', label: 'Away colour', default: '#1d428a' },
      { name: 'homeCrest', type: 'asset', label: 'Home crest (from the asset library)', default: null },
      { name: 'awayCrest', type: 'asset', label: 'Away crest (from the asset library)', default: null },
      { name: 'homeReds', type: 'number', label: 'Home red cards (0–3)', default: 0 },
      { name: 'awayReds', type: 'number', label: 'Away red cards (0–3)', default: 0 },
      { name: 'stoppage', type: 'number', label: 'Stoppage time, minutes (0: none)', default: 0 },
      {
        name: 'matchClock',
        type: 'clock',
        label: 'Match clock',
        default: 0,
        direction: 'up',
        periods: [
          { name: '1st half', startAt: 0, stopAt: 2_700_000 },
          { name: '2nd half', startAt: 2_700_000, stopAt: 5_400_000 },
        ],
      },
    ],
    elements: [
      {
        type: 'box',
        name: 'panel',
        x: LEFT,
        y: TOP,
        width: INFO.x - LEFT,
        height: HEIGHT,
        fill: verticalGradient('#252a35', '#12151b'),
        shadow: { x: 0, y: 8, blur: 24, color: '#00000066' },
      },
      ...team('home'),
      ...team('away'),
      ...info,
    ],
    transitions: {
      in: { type: 'slide', from: 'left', durationMs: 500, easing: 'ease-out' },
      out: { type: 'slide', from: 'left', durationMs: 400, easing: 'ease-in' },
    },
    triggers: [
      { name: 'flashScoreA', animation: 'pulse', targets: ['scoreABox'], on: 'scoreA', durationMs: 600 },
      { name: 'flashScoreB', animation: 'pulse', targets: ['scoreBBox'], on: 'scoreB', durationMs: 600 },
    ],
  },
};

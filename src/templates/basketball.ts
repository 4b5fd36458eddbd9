import type { GroupElement, SceneElement } from '@onair/protocol';
import type { Template } from './template.js';
import { verticalGradient } from './styles.js';

/** The bar: 96–1368 × 60–144 px, at the top left of the title-safe area like the scoreboard (clear of the logo bug). */
const TOP = 60;
const HEIGHT = 84;
const LEFT = 96;
const RIGHT = 1368;
const AMBER = '#ffc629';
const FONT = 'Barlow Condensed';
const MAX_TIMEOUTS = 7;
const PIP = { width: 22, gap: 5, height: 8 };
const PIPS_WIDTH = MAX_TIMEOUTS * PIP.width + (MAX_TIMEOUTS - 1) * PIP.gap;

type Side = 'home' | 'away';

/** Where a team's parts sit: home reads from the left edge in, away mirrors it from the right. */
function layout(side: Side) {
  const home = side === 'home';
  const mirror = (x: number, width: number) => (home ? x : LEFT + RIGHT - x - width);
  return {
    home,
    mirror,
    score: home ? 'scoreA' : 'scoreB',
    fouls: home ? 'homeFouls' : 'awayFouls',
    delayMs: home ? 60 : 120,
  };
}

const scoreBox = (side: Side): GroupElement => {
  const { mirror, score, delayMs } = layout(side);
  return {
    type: 'group',
    name: `${score}Box`,
    x: mirror(448, 128),
    y: TOP,
    width: 128,
    height: HEIGHT,
    delayMs: delayMs + 60,
    children: [
      {
        type: 'box',
        name: `${score}Panel`,
        x: 0,
        y: 0,
        width: 128,
        height: HEIGHT,
        fill: verticalGradient('#ffffff', '#dfe3e9'),
      },
      {
        type: 'text',
        name: `${score}Digits`,
        x: 0,
        y: 0,
        width: 128,
        height: HEIGHT,
        text: `{${score}}`,
        fontFamily: FONT,
        fontWeight: 700,
        fontSize: 66,
        color: '#12151b',
        align: 'center',
      },
    ],
  };
};

/** Seven pips, the outermost first: pip k is lit while the team has k timeouts or more. */
const timeoutPips = (side: Side): GroupElement => {
  const { home, mirror, delayMs } = layout(side);
  const input = `${side}Timeouts`;
  const pips = Array.from({ length: MAX_TIMEOUTS }, (_, i): SceneElement[] => {
    const x = home ? i * (PIP.width + PIP.gap) : PIPS_WIDTH - PIP.width - i * (PIP.width + PIP.gap);
    const pip = { type: 'box', x, y: 0, width: PIP.width, height: PIP.height, radius: 2 } as const;
    return [
      { ...pip, name: `${side}TimeoutSlot${i + 1}`, fill: '#ffffff26' },
      { ...pip, name: `${side}Timeout${i + 1}`, fill: '#ffffff', visibleWhen: { input, atLeast: i + 1 } },
    ];
  }).flat();
  return {
    type: 'group',
    name: `${side}Timeouts`,
    x: mirror(124, PIPS_WIDTH),
    y: 124,
    width: PIPS_WIDTH,
    height: PIP.height,
    delayMs,
    children: pips,
  };
};

/** The team fouls, and a BONUS badge from the fifth. */
const fouls = (side: Side): SceneElement[] => {
  const { home, mirror, fouls: input, delayMs } = layout(side);
  return [
    {
      type: 'text',
      name: `${side}FoulCount`,
      x: mirror(318, 70),
      y: 116,
      width: 70,
      height: 24,
      text: `FOULS {${input}}`,
      fontFamily: FONT,
      fontWeight: 600,
      fontSize: 20,
      letterSpacing: 1,
      color: '#c5ccd6',
      align: home ? 'left' : 'right',
      delayMs,
    },
    {
      type: 'group',
      name: `${side}Bonus`,
      x: mirror(388, 52),
      y: 118,
      width: 52,
      height: 20,
      visibleWhen: { input, atLeast: 5 },
      delayMs,
      children: [
        { type: 'box', name: `${side}BonusBadge`, x: 0, y: 0, width: 52, height: 20, fill: AMBER, radius: 3 },
        {
          type: 'text',
          name: `${side}BonusText`,
          x: 0,
          y: 0,
          width: 52,
          height: 20,
          text: 'BONUS',
          fontFamily: FONT,
          fontWeight: 700,
          fontSize: 16,
          letterSpacing: 1,
          color: '#12151b',
          align: 'center',
        },
      ],
    },
  ];
};

/** Stripe, name (shrinks to fit), timeouts, fouls and score of one team. */
const team = (side: Side): SceneElement[] => {
  const { home, mirror, delayMs } = layout(side);
  return [
    {
      type: 'box',
      name: `${side}Stripe`,
      x: mirror(LEFT, 10),
      y: TOP,
      width: 10,
      height: HEIGHT,
      fill: `{${side}Color}`,
      delayMs,
    },
    {
      type: 'text',
      name: `${side}Name`,
      x: mirror(122, 316),
      y: 64,
      width: 316,
      height: 50,
      text: `{${side}}`,
      fontFamily: FONT,
      fontWeight: 600,
      fontSize: 40,
      letterSpacing: 1,
      uppercase: true,
      shrink: true,
      color: '#ffffff',
      align: home ? 'left' : 'right',
      delayMs,
    },
    timeoutPips(side),
    ...fouls(side),
    scoreBox(side),
  ];
};

/** A chevron of two strokes under the game clock, pointing at the team the arrow gives the ball to. */
const possessionArrow = (side: Side): GroupElement => {
  const home = side === 'home';
  const stroke = { type: 'box', x: home ? 3 : 7, width: 14, height: 5, fill: AMBER, radius: 2 } as const;
  return {
    type: 'group',
    name: `${side}Possession`,
    x: home ? 600 : 840,
    y: 116,
    width: 24,
    height: 24,
    visibleWhen: { input: 'possession', equals: side },
    delayMs: 180,
    children: [
      { ...stroke, name: `${side}PossessionUpper`, y: 4.5, rotation: home ? -45 : 45 },
      { ...stroke, name: `${side}PossessionLower`, y: 14.5, rotation: home ? 45 : -45 },
    ],
  };
};

const centre: SceneElement[] = [
  { type: 'box', name: 'infoPanel', x: 576, y: TOP, width: 312, height: HEIGHT, fill: '#0b0d12', delayMs: 180 },
  {
    type: 'clock',
    name: 'clock',
    x: 584,
    y: 62,
    width: 196,
    height: 54,
    clock: 'gameClock',
    format: 'm:ss.t',
    fontFamily: FONT,
    fontWeight: 600,
    fontSize: 50,
    color: '#ffffff',
    align: 'center',
    delayMs: 180,
  },
  {
    type: 'box',
    name: 'shotClockPanel',
    x: 790,
    y: 68,
    width: 88,
    height: 44,
    fill: '#1c212b',
    radius: 4,
    delayMs: 180,
  },
  {
    type: 'clock',
    name: 'shotClock',
    x: 790,
    y: 68,
    width: 88,
    height: 44,
    clock: 'shotClock',
    format: 's.t',
    fontFamily: FONT,
    fontWeight: 700,
    fontSize: 42,
    color: AMBER,
    align: 'center',
    delayMs: 180,
  },
  {
    type: 'text',
    name: 'period',
    x: 628,
    y: 116,
    width: 208,
    height: 24,
    text: '{periodLabel}{period}',
    fontFamily: FONT,
    fontWeight: 600,
    fontSize: 22,
    letterSpacing: 2,
    uppercase: true,
    color: '#c5ccd6',
    align: 'center',
    delayMs: 180,
  },
  possessionArrow('home'),
  possessionArrow('away'),
];

/**
 * A basketball score bar across the top of the stage (docs/scenes.md, "Templates"): each team's stripe, name,
 * timeouts left as pips, team fouls with a BONUS badge from the fifth, and a white score box that pulses on a
 * change (never faded); in the middle the game clock (12:00 down, tenths in the last minute), the shot clock
 * (24 down, tenths under 5 s), the quarter, and the possession arrow. 96–1368 × 60–144 px, in title safe.
 */
export const basketballScoreboard: Template = {
  id: 'basketball-scoreboard',
  name: 'Basketball scoreboard',
  definition: {
    version: 1,
    layer: 10,
    inputs: [
      { name: 'home', type: 'text', label: 'Home team', default: 'HOME' },
      { name: 'away', type: 'text', label: 'Away team', default: 'AWAY' },
      { name: 'scoreA', type: 'number', label: 'Home score', default: 0 },
      { name: 'scoreB', type: 'number', label: 'Away score', default: 0 },
      { name: 'period', type: 'number', label: 'Quarter', default: 1 },
      { name: 'periodLabel', type: 'text', label: 'Quarter prefix (Q, OT…)', default: 'Q' },
      { name: 'homeColor', type: 'color', label: 'Home colour', default: '#c8102e' },
      { name: 'awayColor', type: 'color', label: 'Away colour', default: '#1d428a' },
      { name: 'homeFouls', type: 'number', label: 'Home team fouls', default: 0 },
      { name: 'awayFouls', type: 'number', label: 'Away team fouls', default: 0 },
      { name: 'homeTimeouts', type: 'number', label: 'Home timeouts left (0–7)', default: 7 },
      { name: 'awayTimeouts', type: 'number', label: 'Away timeouts left (0–7)', default: 7 },
      { name: 'possession', type: 'text', label: 'Possession arrow (home or away)', default: 'home' },
      { name: 'gameClock', type: 'clock', label: 'Game clock', default: 720_000, direction: 'down', stopAt: 0 },
      { name: 'shotClock', type: 'clock', label: 'Shot clock', default: 24_000, direction: 'down', stopAt: 0 },
    ],
    elements: [
      {
        type: 'box',
        name: 'panel',
        x: LEFT,
        y: TOP,
        width: RIGHT - LEFT,
        height: HEIGHT,
        fill: verticalGradient('#252a35', '#12151b'),
        shadow: { x: 0, y: 8, blur: 24, color: '#00000066' },
      },
      ...team('home'),
      ...centre,
      ...team('away'),
    ],
    transitions: {
      in: { type: 'slide', from: 'top', durationMs: 500, easing: 'ease-out' },
      out: { type: 'slide', from: 'top', durationMs: 400, easing: 'ease-in' },
    },
    triggers: [
      { name: 'flashScoreA', animation: 'pulse', targets: ['scoreABox'], on: 'scoreA', durationMs: 600 },
      { name: 'flashScoreB', animation: 'pulse', targets: ['scoreBBox'], on: 'scoreB', durationMs: 600 },
    ],
  },
};

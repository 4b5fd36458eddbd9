import type { GroupElement } from '@onair/protocol';
import type { Template } from './template.js';
import { verticalGradient } from './styles.js';

const name = {
  type: 'text',
  y: 60,
  width: 224,
  height: 56,
  fontFamily: 'Barlow Condensed',
  fontWeight: 600,
  fontSize: 34,
  letterSpacing: 1,
  uppercase: true,
  shrink: true,
  color: '#ffffff',
  align: 'center',
} as const;

const scoreBox = (x: number, score: string, delayMs: number): GroupElement => ({
  type: 'group',
  name: `${score}Box`,
  x,
  y: 60,
  width: 68,
  height: 56,
  delayMs,
  children: [
    {
      type: 'box',
      name: `${score}Panel`,
      x: 0,
      y: 0,
      width: 68,
      height: 56,
      fill: verticalGradient('#ffffff', '#dfe3e9'),
    },
    {
      type: 'text',
      name: `${score}Digits`,
      x: 0,
      y: 0,
      width: 68,
      height: 56,
      text: `{${score}}`,
      fontFamily: 'Barlow Condensed',
      fontWeight: 700,
      fontSize: 42,
      color: '#12151b',
      align: 'center',
    },
  ],
});

/**
 * A top-left score bug (docs/scenes.md, "Templates"): team colour stripes, names that shrink to fit, white
 * score boxes that pulse when a score changes (the new number stays fully drawn at every frame: never faded, so
 * it is legible the moment viewers look for it), the period and a game clock counting down from 12:00.
 * 96–968 × 60–116 px: inside the title-safe area of a 1920×1080 stage.
 */
export const scoreboard: Template = {
  id: 'scoreboard',
  name: 'Scoreboard',
  definition: {
    version: 1,
    layer: 10,
    inputs: [
      { name: 'home', type: 'text', label: 'Home team', default: 'HOME' },
      { name: 'away', type: 'text', label: 'Away team', default: 'AWAY' },
      { name: 'scoreA', type: 'number', label: 'Home score', default: 0 },
      { name: 'scoreB', type: 'number', label: 'Away score', default: 0 },
      { name: 'period', type: 'number', label: 'Period', default: 1 },
      { name: 'periodLabel', type: 'text', label: 'Period prefix (Q, P, H…)', default: 'Q' },
      { name: 'homeColor', type: 'color', label: 'Home colour', default: '#c8102e' },
      { name: 'awayColor', type: 'color', label: 'Away colour', default: '#1d428a' },
      {
        name: 'gameClock',
        type: 'clock',
        label: 'Game clock',
        default: 720_000,
        direction: 'down',
        stopAt: 0,
      },
    ],
    elements: [
      {
        type: 'box',
        name: 'panel',
        x: 96,
        y: 60,
        width: 872,
        height: 56,
        fill: verticalGradient('#252a35', '#12151b'),
        shadow: { x: 0, y: 8, blur: 24, color: '#00000066' },
      },
      { type: 'box', name: 'homeStripe', x: 96, y: 60, width: 8, height: 56, fill: '{homeColor}', delayMs: 60 },
      { ...name, name: 'homeName', x: 112, text: '{home}', delayMs: 60 },
      scoreBox(344, 'scoreA', 120),
      scoreBox(416, 'scoreB', 160),
      { ...name, name: 'awayName', x: 492, text: '{away}', delayMs: 200 },
      { type: 'box', name: 'awayStripe', x: 724, y: 60, width: 8, height: 56, fill: '{awayColor}', delayMs: 200 },
      { type: 'box', name: 'infoPanel', x: 732, y: 60, width: 236, height: 56, fill: '#0b0d12', delayMs: 240 },
      {
        type: 'text',
        name: 'period',
        x: 732,
        y: 60,
        width: 72,
        height: 56,
        text: '{periodLabel}{period}',
        fontFamily: 'Barlow Condensed',
        fontWeight: 600,
        fontSize: 32,
        uppercase: true,
        color: '#c5ccd6',
        align: 'center',
        delayMs: 240,
      },
      { type: 'box', name: 'divider', x: 804, y: 72, width: 2, height: 32, fill: '#ffffff33', delayMs: 240 },
      {
        type: 'clock',
        name: 'clock',
        x: 806,
        y: 60,
        width: 162,
        height: 56,
        clock: 'gameClock',
        format: 'm:ss.t',
        fontFamily: 'Barlow Condensed',
        fontWeight: 600,
        fontSize: 38,
        color: '#ffffff',
        align: 'center',
        delayMs: 240,
      },
    ],
    transitions: {
      in: { type: 'slide', from: 'left', durationMs: 500, easing: 'ease-out' },
      out: { type: 'slide', from: 'left', durationMs: 400, easing: 'ease-in' },
    },
    triggers: [
      // Named flash* since the first version (scripts fire them by name); they pulse: a fade would hide the number.
      { name: 'flashScoreA', animation: 'pulse', targets: ['scoreABox'], on: 'scoreA', durationMs: 600 },
      { name: 'flashScoreB', animation: 'pulse', targets: ['scoreBBox'], on: 'scoreB', durationMs: 600 },
    ],
  },
};

import type { BoxElement, Fill, VisibleWhen } from '@onair/protocol';
import type { Template } from './template.js';

/**
 * The bar: along the bottom of the title-safe area, under the lower third's and the sponsor bug's bottom edge
 * (978), so that they stand on it.
 */
const BAR = { left: 96, right: 1824, top: 978, height: 48 };
const WIDTH = BAR.right - BAR.left;
/** Opaque, so that the fades over the ends of the crawl match it exactly. */
const BAR_COLOR = '#14171e';
const LABEL_WIDTH = 200;
/** How far the items fade out into the bar, at either end and beside the label. */
const FADE = 48;
const WITH_LABEL: VisibleWhen = { input: 'tickerLabel', notEquals: '' };
const NO_LABEL: VisibleWhen = { input: 'tickerLabel', equals: '' };

/** The bar's colour at `from`, fading to nothing at the other end (angle as CSS: 90 runs left to right). */
const fade = (angle: 90 | 270): Fill => ({
  gradient: {
    angle,
    stops: [
      { at: 0, color: BAR_COLOR },
      { at: 1, color: `${BAR_COLOR}00` },
    ],
  },
});

const fadeBox = (name: string, x: number, angle: 90 | 270, more: Partial<BoxElement> = {}): BoxElement => ({
  type: 'box',
  name,
  x,
  y: BAR.top,
  width: FADE,
  height: BAR.height,
  fill: fade(angle),
  ...more,
});

/**
 * A news ticker (docs/scenes.md, "Templates"): the rows of the `items` list crawling right to left along a bar
 * at the bottom of the title-safe area, looping without a gap, under a label box in the accent colour (LATEST,
 * BREAKING; an empty label takes the box away and the items run the whole bar). The items fade in and out at the
 * bar's ends. Wiped in from the left and out to the right. 96–1824 × 978–1026 px.
 */
export const ticker: Template = {
  id: 'ticker',
  name: 'Ticker',
  definition: {
    version: 1,
    layer: 35,
    inputs: [
      {
        name: 'items',
        type: 'list',
        label: 'Items',
        default: [],
        columns: [{ name: 'text', type: 'text' }],
        maxRows: 30,
      },
      { name: 'tickerLabel', type: 'text', label: 'Label (empty: none)', scope: 'item', default: 'Latest' },
      { name: 'accent', type: 'color', label: 'Accent colour', default: '#e63946' },
    ],
    elements: [
      {
        type: 'box',
        name: 'bar',
        x: BAR.left,
        y: BAR.top,
        width: WIDTH,
        height: BAR.height,
        fill: BAR_COLOR,
        shadow: { x: 0, y: 6, blur: 18, color: '#00000059' },
      },
      {
        type: 'crawl',
        name: 'crawl',
        list: 'items',
        text: '{text}',
        separator: '     \u2022     ',
        speed: 120,
        x: BAR.left,
        y: BAR.top,
        width: WIDTH,
        height: BAR.height,
        fontFamily: 'Barlow Condensed',
        fontWeight: 500,
        fontSize: 32,
        color: '#f3f4f6',
        delayMs: 300,
      },
      fadeBox('startFade', BAR.left, 90, { visibleWhen: NO_LABEL }),
      fadeBox('endFade', BAR.right - FADE, 270),
      fadeBox('labelFade', BAR.left + LABEL_WIDTH, 90, { visibleWhen: WITH_LABEL, delayMs: 120 }),
      {
        type: 'box',
        name: 'labelBox',
        x: BAR.left,
        y: BAR.top,
        width: LABEL_WIDTH,
        height: BAR.height,
        fill: '{accent}',
        visibleWhen: WITH_LABEL,
        delayMs: 120,
      },
      {
        type: 'text',
        name: 'labelText',
        x: BAR.left + 16,
        y: BAR.top,
        width: LABEL_WIDTH - 32,
        height: BAR.height,
        text: '{tickerLabel}',
        fontFamily: 'Oswald',
        fontWeight: 600,
        fontSize: 26,
        letterSpacing: 2,
        uppercase: true,
        shrink: true,
        color: '#ffffff',
        align: 'center',
        visibleWhen: WITH_LABEL,
        delayMs: 200,
      },
    ],
    transitions: {
      in: { type: 'wipe', from: 'left', durationMs: 500, easing: 'ease-out' },
      out: { type: 'wipe', from: 'right', durationMs: 400, easing: 'ease-in' },
    },
    triggers: [],
  },
};

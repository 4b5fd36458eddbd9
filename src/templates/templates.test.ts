import { describe, expect, it } from 'vitest';
import { templateView } from '../operations/templates.js';
import { normaliseDefinition, SceneDefinitionIn } from '../scenes/definition-schema.js';
import { forEachElement, type InputDef, type SceneElement } from '@onair/protocol';
import { findTemplate, TEMPLATES } from './index.js';

/** The weights the output page bundles for each face (docs/scenes.md, "Typefaces"). */
const WEIGHTS: Record<string, [number, number]> = {
  Inter: [400, 800],
  Oswald: [400, 700],
  'Barlow Condensed': [400, 800],
  'Roboto Mono': [400, 700],
};

/** Title safe: the middle 90 % of a 1920×1080 stage. */
const SAFE = { left: 96, top: 54, right: 1824, bottom: 1026 };

interface Placed {
  el: SceneElement;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Every element with its box on the stage (children are placed in their group's box). */
function placed(elements: SceneElement[], x = 0, y = 0): Placed[] {
  return elements.flatMap((el) => {
    const here = { el, left: x + el.x, top: y + el.y, right: x + el.x + el.width, bottom: y + el.y + el.height };
    return el.type === 'group' ? [here, ...placed(el.children, here.left, here.top)] : [here];
  });
}

const isBackdrop = (p: Placed) =>
  p.el.type === 'box' && p.left === 0 && p.top === 0 && p.right === 1920 && p.bottom === 1080;

describe.each(TEMPLATES.map((t) => [t.id, t] as const))('template %s', (_id, template) => {
  it('passes the API validation and is stored exactly as written', () => {
    const result = SceneDefinitionIn.safeParse(template.definition);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(normaliseDefinition(result.data!)).toEqual(template.definition);
  });

  it('keeps everything but a full-stage backdrop inside the title-safe area', () => {
    const outside = placed(template.definition.elements)
      .filter((p) => !isBackdrop(p))
      .filter((p) => p.left < SAFE.left || p.top < SAFE.top || p.right > SAFE.right || p.bottom > SAFE.bottom);
    expect(outside.map((p) => p.el.name ?? p.el.type)).toEqual([]);
  });

  it('keeps children inside their group', () => {
    forEachElement(template.definition.elements, (el) => {
      if (el.type !== 'group') return;
      for (const child of el.children) {
        expect(child.x >= 0 && child.y >= 0).toBe(true);
        expect(child.x + child.width <= el.width && child.y + child.height <= el.height).toBe(true);
      }
    });
  });

  it('never lets a text shrink below 75 % of its size: past that it is cut with an ellipsis', () => {
    forEachElement(template.definition.elements, (el) => {
      if (el.type !== 'text' && el.type !== 'clock') return;
      expect(el.minFontSize ?? el.fontSize, el.name).toBeGreaterThanOrEqual(0.75 * el.fontSize);
    });
  });

  it('sets a bundled typeface and weight on every text and clock, and lets names shrink to fit in capitals', () => {
    forEachElement(template.definition.elements, (el) => {
      if (el.type !== 'text' && el.type !== 'clock') return;
      const [lightest, boldest] = WEIGHTS[el.fontFamily ?? '']!;
      expect(el.fontWeight).toBeGreaterThanOrEqual(lightest);
      expect(el.fontWeight).toBeLessThanOrEqual(boldest);
      if (el.type === 'text' && /\{(home|away|name)\}/.test(el.text)) {
        expect(el.uppercase).toBe(true);
        expect(el.shrink).not.toBe(false);
      }
    });
  });

  it('enters with a transition, its elements staggered', () => {
    const { transitions, elements } = template.definition;
    expect(transitions.in.type).not.toBe('cut');
    expect(transitions.out.type).not.toBe('cut');
    if (elements.length > 1) expect(new Set(elements.map((el) => el.delayMs ?? 0)).size).toBeGreaterThan(2);
  });
});

describe('the built-in templates', () => {
  it('have the ids and layers the docs give, one layer each', () => {
    expect(TEMPLATES.map((t) => [t.id, t.definition.layer])).toEqual([
      ['scoreboard', 10],
      ['lower-third', 20],
      ['final-score', 5],
      ['countdown', 15],
      ['logo-bug', 30],
      ['basketball-scoreboard', 10],
      ['sponsor-bug', 25],
      ['football-scoreboard', 10],
      ['standings-table', 40],
      ['ticker', 35],
    ]);
  });

  it('keep the inputs existing callers set', () => {
    const types = (id: string) => Object.fromEntries(findTemplate(id)!.definition.inputs.map((i) => [i.name, i.type]));
    expect(types('scoreboard')).toMatchObject({
      home: 'text',
      away: 'text',
      scoreA: 'number',
      scoreB: 'number',
      period: 'number',
    });
    expect(types('lower-third')).toMatchObject({ name: 'text', title: 'text', accent: 'color' });
  });

  it("size the lower third's panels to its name and title", () => {
    const elements = findTemplate('lower-third')!.definition.elements;
    const follows = elements.flatMap((el) => (el.type === 'box' && el.followWidth ? [[el.name, el.followWidth]] : []));
    expect(follows).toEqual([
      ['namePanel', 'nameText'],
      ['titlePanel', 'titleText'],
      ['namePanelOneLine', 'nameTextOneLine'],
    ]);
  });

  it('lower-third: one line with an empty title, no title panel, on the same bottom edge as two lines', () => {
    const elements = findTemplate('lower-third')!.definition.elements;
    const shown = (when: unknown) => elements.filter((el) => JSON.stringify(el.visibleWhen) === JSON.stringify(when));
    const twoLines = shown({ input: 'title', notEquals: '' });
    const oneLine = shown({ input: 'title', equals: '' });
    expect(twoLines.length + oneLine.length).toBe(elements.length);
    expect(twoLines.map((el) => el.name)).toEqual(['accentBar', 'namePanel', 'nameText', 'titlePanel', 'titleText']);
    expect(oneLine.map((el) => el.name)).toEqual(['accentBarOneLine', 'namePanelOneLine', 'nameTextOneLine']);
    const bottom = (els: SceneElement[]) => Math.max(...els.map((el) => el.y + el.height));
    expect(bottom(oneLine)).toBe(bottom(twoLines));
    expect(oneLine.map((el) => el.y + el.height)).toEqual([978, 978, 978]);
  });

  it('sponsor-bug: a logo on a plate and a line on a panel that follows it, in the bottom-right corner', () => {
    const def = findTemplate('sponsor-bug')!.definition;
    expect(def.inputs.map((i) => [i.name, i.type, i.scope ?? 'channel', i.default])).toEqual([
      ['sponsorLogo', 'asset', 'channel', null],
      ['sponsorLine', 'text', 'item', 'Presented by'],
      ['accent', 'color', 'channel', '#e63946'],
    ]);
    const byName = new Map(def.elements.map((el) => [el.name, el]));
    expect(byName.get('logoImage')).toMatchObject({ type: 'image', src: '{sponsorLogo}' });
    expect(byName.get('linePanel')).toMatchObject({ followWidth: 'lineText' });
    for (const name of ['linePanel', 'lineText'])
      expect(byName.get(name)?.visibleWhen).toEqual({ input: 'sponsorLine', notEquals: '' });
    // Clear of the other corners' graphics: the score bars (top), the lower third (up to x 910) and the logo bug.
    const boxes = placed(def.elements);
    expect(Math.min(...boxes.map((p) => p.left))).toBeGreaterThan(960);
    expect(Math.min(...boxes.map((p) => p.top))).toBeGreaterThan(540);
    expect(Math.max(...boxes.map((p) => p.right))).toBe(SAFE.right);
  });

  it('declare a shared input with one type, scope and default, so any of them can share a channel', () => {
    const seen = new Map<string, InputDef>();
    for (const t of TEMPLATES) {
      for (const input of t.definition.inputs) {
        const first = seen.get(input.name) ?? input;
        expect({ ...input, label: '' }, `${t.id}: ${input.name}`).toEqual({ ...first, label: '' });
        seen.set(input.name, first);
      }
    }
  });

  it("give each graphic its own text (item inputs); scores, teams, colours, clocks and logos stay the channel's", () => {
    const items = TEMPLATES.map((t) => [
      t.id,
      t.definition.inputs.filter((i) => i.scope === 'item').map((i) => i.name),
    ]);
    expect(items).toEqual([
      ['scoreboard', []],
      ['lower-third', ['name', 'title']],
      ['final-score', ['headline', 'subtitle']],
      ['countdown', ['label']],
      ['logo-bug', []],
      ['basketball-scoreboard', []],
      ['sponsor-bug', ['sponsorLine']],
      ['football-scoreboard', []],
      ['standings-table', []],
      ['ticker', ['tickerLabel']],
    ]);
  });

  it('scoreboard: a game clock down from 12:00 that stops at 0, and score boxes that flash on a change', () => {
    const def = findTemplate('scoreboard')!.definition;
    expect(def.inputs.find((i) => i.name === 'gameClock')).toMatchObject({
      type: 'clock',
      default: 720_000,
      direction: 'down',
      stopAt: 0,
    });
    expect(def.triggers.map((t) => [t.on, t.animation, t.targets])).toEqual([
      ['scoreA', 'pulse', ['scoreABox']],
      ['scoreB', 'pulse', ['scoreBBox']],
    ]);
  });

  it('basketball-scoreboard: a 12:00 game clock and a 24 s shot clock that stop at 0, tenths at the end', () => {
    const def = findTemplate('basketball-scoreboard')!.definition;
    const clocks = def.inputs.filter((i) => i.type === 'clock');
    expect(clocks.map((i) => [i.name, i.default, i.direction, i.stopAt])).toEqual([
      ['gameClock', 720_000, 'down', 0],
      ['shotClock', 24_000, 'down', 0],
    ]);
    const formats: Record<string, string | undefined> = {};
    forEachElement(def.elements, (el) => {
      if (el.type === 'clock') formats[el.clock] = el.format;
    });
    expect(formats).toEqual({ gameClock: 'm:ss.t', shotClock: 's.t' });
  });

  it('basketball-scoreboard: timeouts as seven pips, a bonus badge from the fifth foul, a possession arrow', () => {
    const def = findTemplate('basketball-scoreboard')!.definition;
    const when: Record<string, unknown> = {};
    forEachElement(def.elements, (el) => {
      if (el.visibleWhen && el.name) when[el.name] = el.visibleWhen;
    });
    for (const side of ['home', 'away']) {
      for (let k = 1; k <= 7; k++) expect(when[`${side}Timeout${k}`]).toEqual({ input: `${side}Timeouts`, atLeast: k });
      expect(when[`${side}Bonus`]).toEqual({ input: `${side}Fouls`, atLeast: 5 });
      expect(when[`${side}Possession`]).toEqual({ input: 'possession', equals: side });
    }
    expect(def.triggers.map((t) => [t.on, t.animation, t.targets])).toEqual([
      ['scoreA', 'pulse', ['scoreABox']],
      ['scoreB', 'pulse', ['scoreBBox']],
    ]);
  });

  it('football-scoreboard: a match clock up from 0:00 through two halves, stopping at 45:00 and 90:00', () => {
    const def = findTemplate('football-scoreboard')!.definition;
    expect(def.inputs.find((i) => i.name === 'matchClock')).toMatchObject({
      type: 'clock',
      default: 0,
      direction: 'up',
      periods: [
        { name: '1st half', stopAt: 2_700_000 },
        { name: '2nd half', stopAt: 5_400_000 },
      ],
    });
    const formats: string[] = [];
    forEachElement(def.elements, (el) => {
      if (el.type === 'clock') formats.push(`${el.clock} ${el.format}`);
    });
    expect(formats).toEqual(['matchClock period', 'matchClock m:ss']);
    expect(def.triggers.map((t) => [t.name, t.on, t.animation, t.targets])).toEqual([
      ['flashScoreA', 'scoreA', 'pulse', ['scoreABox']],
      ['flashScoreB', 'scoreB', 'pulse', ['scoreBBox']],
    ]);
  });

  it('football-scoreboard: crests over a disc, short names in place of full ones, red cards, stoppage from 1', () => {
    const def = findTemplate('football-scoreboard')!.definition;
    const inputs = def.inputs
      .filter((i) => i.type !== 'clock')
      .map((i) => [i.name, i.type, i.scope ?? 'channel', i.default]);
    expect(inputs).toEqual([
      ['home', 'text', 'channel', 'HOME'],
      ['away', 'text', 'channel', 'AWAY'],
      ['homeShort', 'text', 'channel', ''],
      ['awayShort', 'text', 'channel', ''],
      ['scoreA', 'number', 'channel', 0],
      ['scoreB', 'number', 'channel', 0],
      ['homeColor', 'color', 'channel', '#c8102e'],
      ['awayColor', 'color', 'channel', '#1d428a'],
      ['homeCrest', 'asset', 'channel', null],
      ['awayCrest', 'asset', 'channel', null],
      ['homeReds', 'number', 'channel', 0],
      ['awayReds', 'number', 'channel', 0],
      ['stoppage', 'number', 'channel', 0],
    ]);
    const byName = new Map<string, SceneElement>();
    forEachElement(def.elements, (el) => void (el.name && byName.set(el.name, el)));
    expect(byName.get('stoppage')?.visibleWhen).toEqual({ input: 'stoppage', atLeast: 1 });
    for (const side of ['home', 'away']) {
      // The disc is drawn first and never hidden, so an unset crest still leaves a badge.
      const badge = byName.get(`${side}CrestBadge`);
      expect(badge?.type === 'group' && badge.children.map((c) => [c.type, c.visibleWhen])).toEqual([
        ['box', undefined],
        ['image', undefined],
      ]);
      expect(byName.get(`${side}Crest`)).toMatchObject({ type: 'image', src: `{${side}Crest}` });
      expect(byName.get(`${side}Name`)?.visibleWhen).toEqual({ input: `${side}Short`, equals: '' });
      expect(byName.get(`${side}ShortName`)?.visibleWhen).toEqual({ input: `${side}Short`, notEquals: '' });
      for (let k = 1; k <= 3; k++)
        expect(byName.get(`${side}Red${k}`)?.visibleWhen).toEqual({ input: `${side}Reds`, atLeast: k });
    }
  });

  it('ticker: a crawl of the channel list `items` along the bottom edge, under an optional item label', () => {
    const def = findTemplate('ticker')!.definition;
    expect(def.inputs.find((i) => i.name === 'items')).toMatchObject({
      type: 'list',
      columns: [{ name: 'text', type: 'text' }],
    });
    expect(def.inputs.find((i) => i.name === 'items')?.scope).toBeUndefined();
    const names = def.elements.map((el) => el.name);
    const crawl = def.elements.find((el) => el.type === 'crawl')!;
    expect(crawl).toMatchObject({ list: 'items', text: '{text}', x: SAFE.left, width: SAFE.right - SAFE.left });
    expect(crawl.y + crawl.height).toBe(SAFE.bottom);
    // The fades and the label are drawn over the moving line; the label and its fade go with an empty label.
    for (const over of ['startFade', 'endFade', 'labelFade', 'labelBox', 'labelText'])
      expect(names.indexOf(over), over).toBeGreaterThan(names.indexOf('crawl'));
    const label = { input: 'tickerLabel', notEquals: '' };
    for (const name of ['labelFade', 'labelBox', 'labelText'])
      expect(def.elements.find((el) => el.name === name)?.visibleWhen).toEqual(label);
  });

  it('are listed with their layer and trigger names', () => {
    expect(templateView(findTemplate('scoreboard')!)).toMatchObject({
      id: 'scoreboard',
      name: 'Scoreboard',
      layer: 10,
      triggers: ['flashScoreA', 'flashScoreB'],
    });
  });
});

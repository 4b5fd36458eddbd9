/**
 * The checks across a scene definition that no field can make alone (docs/scenes.md, "Bindings"): every name
 * an element or trigger uses is declared, with a type that fits; names are unique; defaults fit their input.
 * Each problem is reported at the exact path of the field that holds it (`elements.3.children.0.text`).
 */
import type { z } from 'zod';
import { checkValue } from '../engine/index.js';
import { closestName } from '../engine/closest-name.js';
import { AppError } from '../errors.js';
import {
  placeholders,
  WHOLE_PLACEHOLDER,
  type ColorRef,
  type Fill,
  type GraphicRef,
  type InputDef,
  type InputType,
  type ListColumn,
  type SceneElement,
  type TriggerDef,
  type VisibleWhen,
} from '@onair/protocol';
import { checkClockInput, type ClockPeriodLike } from './clock-checks.js';
import { SCENE_LIMITS } from './element-schemas.js';
import { checkGraphic } from './graphic-checks.js';
import { checkListShape, rowScope } from './list-checks.js';

const notInText = (type: InputType | undefined): string =>
  `a ${type === 'list' ? 'list is drawn by a rows or crawl' : 'clock is drawn by a clock'} element, not in text`;

export type Path = (string | number)[];
export type Report = (path: Path, message: string) => void;
type ColorCheck = (path: Path, value: ColorRef | undefined) => void;

/** An input as the API accepts it, before label and default are filled in. */
export interface InputDefLike {
  name: string;
  type: InputType;
  scope?: InputDef['scope'];
  default?: InputDef['default'];
  direction?: InputDef['direction'];
  stopAt?: number | null;
  options?: string[];
  periods?: ClockPeriodLike[];
  columns?: ListColumn[];
  maxRows?: number;
}

export interface DefinitionLike {
  graphic?: Pick<GraphicRef, 'data'> | undefined;
  inputs: InputDefLike[];
  elements: SceneElement[];
  triggers: TriggerDef[];
}

export function checkDefinition(def: DefinitionLike, ctx: z.core.$RefinementCtx): void {
  const report: Report = (path, message) => ctx.addIssue({ code: 'custom', path, message, input: undefined });
  const inputs = checkInputs(def.inputs, report);
  const columns = new Map(def.inputs.flatMap((i) => (i.type === 'list' && i.columns ? [[i.name, i.columns]] : [])));
  const names = checkElements(def.elements, inputs, columns, report);
  checkTriggers(def.triggers, inputs, names, report);
  const withPeriods = new Set(def.inputs.filter((i) => i.type === 'clock' && i.periods).map((i) => i.name));
  checkPeriodFormats(def.elements, ['elements'], inputs, withPeriods, report);
  checkGraphic(def, report);
}

/** A clock element showing `period` needs a clock with periods (one without has no name to show). */
function checkPeriodFormats(
  elements: SceneElement[],
  path: Path,
  inputs: Map<string, InputType>,
  withPeriods: Set<string>,
  report: Report,
): void {
  elements.forEach((el, i) => {
    if (el.type === 'group' || el.type === 'rows')
      checkPeriodFormats(el.children, [...path, i, 'children'], inputs, withPeriods, report);
    if (el.type !== 'clock' || el.format !== 'period' || inputs.get(el.clock) !== 'clock') return;
    if (!withPeriods.has(el.clock))
      report([...path, i, 'format'], `clock "${el.clock}" has no periods: declare its "periods" to show their names`);
  });
}

function checkInputs(inputs: InputDefLike[], report: Report): Map<string, InputType> {
  const types = new Map<string, InputType>();
  inputs.forEach((input, i) => {
    if (types.has(input.name)) report(['inputs', i, 'name'], `duplicate input "${input.name}"`);
    else types.set(input.name, input.type);
    checkInputDefault(input, ['inputs', i], report);
  });
  return types;
}

function checkInputDefault(input: InputDefLike, path: Path, report: Report): void {
  if (input.type === 'clock') return checkClockInput(input, path, report);
  if (input.direction !== undefined) report([...path, 'direction'], 'only a clock input has a direction');
  if (input.stopAt !== undefined) report([...path, 'stopAt'], 'only a clock input has stopAt');
  if (input.periods !== undefined) report([...path, 'periods'], 'only a clock input has periods');
  if (!checkOptions(input, path, report) || !checkListShape(input, path, report)) return;
  if (input.default === undefined || input.default === null) return;
  try {
    const { options, columns, maxRows } = input;
    const def = { name: input.name, type: input.type, label: '', default: null, options, columns, maxRows };
    checkValue(def, input.default, input.name);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    report([...path, 'default'], err.errors?.[0]?.message ?? err.message);
  }
}

/** A select lists its options, each once; no other type has any. False when the default cannot be checked. */
function checkOptions(input: InputDefLike, path: Path, report: Report): boolean {
  if (input.type !== 'select') {
    if (input.options !== undefined) report([...path, 'options'], 'only a select input has options');
    return true;
  }
  if (input.options === undefined) {
    report([...path, 'options'], 'a select input lists the values it may take');
    return false;
  }
  input.options.forEach((option, k) => {
    if (input.options!.indexOf(option) < k) report([...path, 'options', k], `duplicate option "${option}"`);
  });
  return true;
}

/** Checks every element's bindings; returns the element names. */
function checkElements(
  elements: SceneElement[],
  sceneInputs: Map<string, InputType>,
  columns: Map<string, ListColumn[]>,
  report: Report,
): Set<string> {
  const names = new Set<string>();
  let count = 0;
  const visit = (list: SceneElement[], path: Path, inputs = sceneInputs): void => {
    checkFollowers(list, path, report);
    list.forEach((el, i) => {
      const at = [...path, i];
      count++;
      if (el.name !== undefined) {
        if (names.has(el.name)) report([...at, 'name'], `duplicate element name "${el.name}"`);
        names.add(el.name);
      }
      checkElement(el, at, inputs, report);
      if (el.type === 'crawl') {
        const scope = rowScope(el, at, inputs, columns, report, (name) => undeclared(name, inputs));
        checkPlaceholders(el.text, [...at, 'text'], scope, report);
      }
      if (el.type === 'group') visit(el.children, [...at, 'children'], inputs);
      if (el.type === 'rows') {
        const scope = rowScope(el, at, inputs, columns, report, (name) => undeclared(name, inputs));
        visit(el.children, [...at, 'children'], scope);
      }
    });
  };
  visit(elements, ['elements']);
  if (count > SCENE_LIMITS.elements)
    report(['elements'], `at most ${SCENE_LIMITS.elements} elements in all, children of groups included (${count})`);
  return names;
}

/** The input exists and can hold what the condition compares it with. */
function checkVisibleWhen(when: VisibleWhen, at: Path, inputs: Map<string, InputType>, report: Report): void {
  const type = inputs.get(when.input);
  if (type === undefined) return report([...at, 'input'], undeclared(when.input, inputs));
  if (type === 'clock')
    return report([...at, 'input'], `"${when.input}" is a clock input; visibleWhen takes any other`);
  if (when.atLeast !== undefined && type !== 'number')
    return report([...at, 'atLeast'], `"${when.input}" is a ${type} input; atLeast takes a number input`);
  const field = when.equals !== undefined ? 'equals' : 'notEquals';
  const value = when[field];
  if (value === undefined) return;
  try {
    // A select's value is one of its options: here it is checked as the text it is (a condition on a value the
    // options do not hold is harmless, it never shows).
    const asType = type === 'select' ? 'text' : type;
    checkValue({ name: when.input, type: asType, label: '', default: null }, value, when.input);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    report([...at, field], `"${when.input}" is a ${type} input: ${field} ${err.errors?.[0]?.message ?? err.message}`);
  }
}

function checkElement(el: SceneElement, at: Path, inputs: Map<string, InputType>, report: Report): void {
  const ref = (path: Path, name: string, fits: (type: InputType) => boolean, kind: string): void => {
    const type = inputs.get(name);
    if (type === undefined) report(path, undeclared(name, inputs));
    else if (!fits(type)) report(path, `"${name}" is a ${type} input; ${kind}`);
  };
  const color: ColorCheck = (path, value) => {
    const name = value === undefined ? undefined : WHOLE_PLACEHOLDER.exec(value)?.[1];
    if (name !== undefined) ref(path, name, (t) => t === 'color', 'a colour takes a color input');
  };
  if (el.visibleIf !== undefined)
    ref([...at, 'visibleIf'], el.visibleIf, (t) => t === 'boolean', 'visibleIf takes a boolean input');
  if (el.visibleWhen !== undefined) checkVisibleWhen(el.visibleWhen, [...at, 'visibleWhen'], inputs, report);
  switch (el.type) {
    case 'text':
      checkPlaceholders(el.text, [...at, 'text'], inputs, report);
      color([...at, 'color'], el.color);
      checkTextFit(el, at, report);
      if (el.minWidth !== undefined && el.minWidth > el.width)
        report([...at, 'minWidth'], `must not be more than width (${el.width}), the most the box takes`);
      return;
    case 'clock':
      ref([...at, 'clock'], el.clock, (t) => t === 'clock', 'a clock element shows a clock input');
      color([...at, 'color'], el.color);
      checkTextFit(el, at, report);
      return;
    case 'image': {
      const name = WHOLE_PLACEHOLDER.exec(el.src)?.[1];
      if (name !== undefined)
        ref([...at, 'src'], name, (t) => t === 'image' || t === 'asset', 'src takes an image or asset input');
      return;
    }
    case 'box':
      checkFill(el.fill, [...at, 'fill'], color, report);
      color([...at, 'border', 'color'], el.border?.color);
      color([...at, 'shadow', 'color'], el.shadow?.color);
      return;
    case 'crawl':
      // Its text is checked with the list's columns (checkElements).
      color([...at, 'color'], el.color);
      return;
    case 'group':
    case 'rows':
      return;
  }
}

/** A text's placeholders name inputs (in a crawl's, the list's columns too) that text can show. */
function checkPlaceholders(template: string, path: Path, inputs: Map<string, InputType>, report: Report): void {
  for (const name of placeholders(template)) {
    const type = inputs.get(name);
    if (type === undefined) report(path, undeclared(name, inputs));
    else if (type === 'clock' || type === 'list') report(path, `"${name}" is a ${type} input; ${notInText(type)}`);
  }
}

function checkTextFit(el: { fontSize: number; minFontSize?: number }, at: Path, report: Report): void {
  if (el.minFontSize !== undefined && el.minFontSize > el.fontSize)
    report([...at, 'minFontSize'], `must not be more than fontSize (${el.fontSize})`);
}

/** A box follows a text with `minWidth` beside it (same group): the two share coordinates. */
function checkFollowers(list: SceneElement[], path: Path, report: Report): void {
  const texts = new Map<string, SceneElement>();
  for (const el of list) if (el.name !== undefined && !texts.has(el.name)) texts.set(el.name, el);
  list.forEach((el, i) => {
    if (el.type !== 'box' || el.followWidth === undefined) return;
    const at = [...path, i, 'followWidth'];
    const target = texts.get(el.followWidth);
    if (target === undefined)
      report(at, `no element at this level (same group) is named "${el.followWidth}"${hint(el.followWidth, texts)}`);
    else if (target.type !== 'text' || target.minWidth === undefined)
      report(at, `"${el.followWidth}" is not a text element with minWidth: its width never changes`);
  });
}

function hint(name: string, names: Map<string, unknown>): string {
  const closest = closestName(name, names.keys());
  return closest === undefined ? '' : ` (did you mean "${closest}"?)`;
}

function checkFill(fill: Fill | undefined, path: Path, color: ColorCheck, report: Report): void {
  if (fill === undefined) return;
  if (typeof fill === 'string') return color(path, fill);
  checkOrder(fill.gradient.stops, [...path, 'gradient', 'stops'], report);
  fill.gradient.stops.forEach((stop, k) => color([...path, 'gradient', 'stops', k, 'color'], stop.color));
}

/** Gradient stops and keyframes go in order of `at`. */
function checkOrder(list: { at: number }[], path: Path, report: Report): void {
  list.forEach((item, k) => {
    const prev = list[k - 1];
    if (prev !== undefined && item.at < prev.at)
      report([...path, k, 'at'], `must not be less than the one before (${prev.at})`);
  });
}

function checkTriggers(
  triggers: TriggerDef[],
  inputs: Map<string, InputType>,
  elements: Set<string>,
  report: Report,
): void {
  const seen = new Set<string>();
  triggers.forEach((trigger, i) => {
    const at = ['triggers', i];
    if (seen.has(trigger.name)) report([...at, 'name'], `duplicate trigger "${trigger.name}"`);
    seen.add(trigger.name);
    if (trigger.on !== undefined && !inputs.has(trigger.on)) report([...at, 'on'], undeclared(trigger.on, inputs));
    if (typeof trigger.animation === 'object')
      checkOrder(trigger.animation.keyframes, [...at, 'animation', 'keyframes'], report);
    trigger.targets?.forEach((target, j) => {
      if (!elements.has(target)) report([...at, 'targets', j], undeclaredElement(target, elements));
    });
  });
}

function undeclared(name: string, inputs: Map<string, InputType>): string {
  const closest = closestName(name, inputs.keys());
  const hint = closest === undefined ? '' : ` (did you mean "${closest}"?)`;
  return `"${name}" is not an input of this scene: declare it in "inputs"${hint}`;
}

function undeclaredElement(name: string, elements: Set<string>): string {
  const closest = closestName(name, elements);
  const hint = closest === undefined ? '' : ` (did you mean "${closest}"?)`;
  return `no element of this scene is named "${name}"${hint}`;
}

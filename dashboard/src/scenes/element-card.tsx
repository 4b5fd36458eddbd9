/**
 * One element of the scene in the form (docs/scenes.md, "Elements"): its type, name, place and size, and the
 * common fields of its type. Everything else (opacity, shadows, gradients, a group's children…) is kept as it is
 * and edited in the JSON view; errors there are listed in the card with their paths.
 */
import { CLOCK_FORMATS, CRAWL_SPEED, type ElementType } from '@onair/protocol';
import type { FieldError } from '../api.js';
import { ELEMENT_TYPES, convertElement, isObj, withKey, type Obj } from './draft.js';
import { ColorField, NumberField, OtherErrors, SelectField, TextField } from './fields.js';
import { FontField } from './font-field.js';
import { ItemActions } from './list-section.js';
import { fieldId, unshownErrors } from './path-errors.js';

const TEXT_KEYS = ['fontFamily', 'fontSize', 'minFontSize', 'color'];
/** The fields the card draws for each type (besides type, name, x, y, width, height). */
const SHOWN: Record<ElementType, string[]> = {
  text: ['text', ...TEXT_KEYS, 'minWidth'],
  clock: ['clock', 'format', ...TEXT_KEYS],
  box: ['fill', 'followWidth'],
  image: ['src', 'fit'],
  group: [],
  rows: ['list', 'rowHeight'],
  crawl: ['list', 'text', 'separator', 'speed', 'fontFamily', 'fontSize', 'color'],
};
const BASE_SHOWN = ['type', 'name', 'x', 'y', 'width', 'height'];

export interface ElementCardProps {
  element: unknown;
  index: number;
  count: number;
  definition: Obj;
  errors: readonly FieldError[];
  onChange: (element: Obj) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

export function ElementCard({
  element,
  index,
  count,
  definition,
  errors,
  onChange,
  onMove,
  onRemove,
}: ElementCardProps) {
  const path = `definition.elements.${index}`;
  const el: Obj = isObj(element) ? element : {};
  const type = ELEMENT_TYPES.find((t) => t === el.type);
  const title = `Element ${index + 1}`;
  const set = (key: string) => (value: unknown) => onChange(withKey(el, key, value));
  const shown = type ? [...BASE_SHOWN, ...SHOWN[type]] : ['type'];
  const field = { errors };
  return (
    <fieldset class="card element-card" id={fieldId(path)} tabIndex={-1} data-element={index}>
      <legend>
        {title}
        {type ? `: ${type}` : ''}
        {typeof el.name === 'string' && el.name ? ` · ${el.name}` : ''}
      </legend>
      <ItemActions title={title} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      <OtherErrors where={title} errors={unshownErrors(errors, path, shown)} />
      <div class="field-grid">
        <SelectField
          {...field}
          label="Type"
          path={`${path}.type`}
          value={el.type}
          options={ELEMENT_TYPES}
          onChange={(t) => {
            const next = ELEMENT_TYPES.find((x) => x === t);
            if (next) onChange(convertElement(el, next, definition));
          }}
        />
        <TextField {...field} label="Name" path={`${path}.name`} value={el.name} optional onChange={set('name')} />
        <NumberField {...field} label="X" path={`${path}.x`} value={el.x} onChange={set('x')} />
        <NumberField {...field} label="Y" path={`${path}.y`} value={el.y} onChange={set('y')} />
        <NumberField {...field} label="Width" path={`${path}.width`} value={el.width} onChange={set('width')} />
        <NumberField {...field} label="Height" path={`${path}.height`} value={el.height} onChange={set('height')} />
      </div>
      {type && <TypeFields type={type} el={el} path={path} errors={errors} set={set} />}
    </fieldset>
  );
}

function TypeFields({
  type,
  el,
  path,
  errors,
  set,
}: {
  type: ElementType;
  el: Obj;
  path: string;
  errors: readonly FieldError[];
  set: (key: string) => (value: unknown) => void;
}) {
  const field = { errors };
  const textStyle = (
    <>
      <FontField
        {...field}
        label="Font"
        path={`${path}.fontFamily`}
        value={el.fontFamily}
        onChange={set('fontFamily')}
      />
      <NumberField
        {...field}
        label="Font size"
        path={`${path}.fontSize`}
        value={el.fontSize}
        onChange={set('fontSize')}
      />
      {type !== 'crawl' && (
        <NumberField
          {...field}
          label="Smallest size"
          path={`${path}.minFontSize`}
          value={el.minFontSize}
          hint="Shrinks to fit down to this, then cuts with …; empty: 75 % of the font size"
          onChange={set('minFontSize')}
        />
      )}
      <ColorField {...field} label="Colour" path={`${path}.color`} value={el.color} onChange={set('color')} />
    </>
  );
  switch (type) {
    case 'text':
      return (
        <div class="field-grid">
          <div class="wide">
            <TextField
              {...field}
              label="Text"
              path={`${path}.text`}
              value={el.text}
              hint="{name} shows an input's value"
              onChange={set('text')}
            />
          </div>
          {textStyle}
          <NumberField
            {...field}
            label="Grows from"
            path={`${path}.minWidth`}
            value={el.minWidth}
            hint="px: the box takes its text's width, from this up to Width; empty: always Width"
            onChange={set('minWidth')}
          />
        </div>
      );
    case 'clock':
      return (
        <div class="field-grid">
          <TextField {...field} label="Clock input" path={`${path}.clock`} value={el.clock} onChange={set('clock')} />
          <SelectField
            {...field}
            label="Format"
            path={`${path}.format`}
            value={el.format}
            options={CLOCK_FORMATS}
            none="m:ss (default)"
            onChange={set('format')}
          />
          {textStyle}
        </div>
      );
    case 'box':
      return (
        <div class="field-grid">
          {isObj(el.fill) ? (
            <p class="hint">A gradient fill: edit it in the JSON view.</p>
          ) : (
            <ColorField {...field} label="Fill" path={`${path}.fill`} value={el.fill} onChange={set('fill')} />
          )}
          <TextField
            {...field}
            label="Follows"
            path={`${path}.followWidth`}
            value={el.followWidth}
            optional
            hint="Name of a text that fits its text: this box grows and shrinks with it"
            onChange={set('followWidth')}
          />
        </div>
      );
    case 'image':
      return (
        <div class="field-grid">
          <div class="wide">
            <TextField
              {...field}
              label="Source"
              path={`${path}.src`}
              value={el.src}
              hint="An http(s) URL, or {name} of an image input"
              onChange={set('src')}
            />
          </div>
          <SelectField
            {...field}
            label="Fit"
            path={`${path}.fit`}
            value={el.fit}
            options={['contain', 'cover', 'fill']}
            none="contain (default)"
            onChange={set('fit')}
          />
        </div>
      );
    case 'group':
      return (
        <p class="hint">
          A group of {Array.isArray(el.children) ? el.children.length : 0} elements: edit its children in the JSON view.
        </p>
      );
    case 'rows':
      return (
        <div class="field-grid">
          <TextField {...field} label="List input" path={`${path}.list`} value={el.list} onChange={set('list')} />
          <NumberField
            {...field}
            label="Row height"
            path={`${path}.rowHeight`}
            value={el.rowHeight}
            hint="px from one row's top to the next's; edit the children (one row's) in the JSON view"
            onChange={set('rowHeight')}
          />
        </div>
      );
    case 'crawl':
      return (
        <div class="field-grid">
          <TextField {...field} label="List input" path={`${path}.list`} value={el.list} onChange={set('list')} />
          <div class="wide">
            <TextField
              {...field}
              label="Item"
              path={`${path}.text`}
              value={el.text}
              hint="One row's text: {column} shows the row's cell, {name} an input's value"
              onChange={set('text')}
            />
          </div>
          <TextField
            {...field}
            label="Separator"
            path={`${path}.separator`}
            value={el.separator}
            optional
            hint="Between items; empty: • "
            onChange={set('separator')}
          />
          <NumberField
            {...field}
            label="Speed"
            path={`${path}.speed`}
            value={el.speed}
            hint={`px a second, ${CRAWL_SPEED.min}–${CRAWL_SPEED.max}; empty: ${CRAWL_SPEED.default}`}
            onChange={set('speed')}
          />
          {textStyle}
        </div>
      );
  }
}

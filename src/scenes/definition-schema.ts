/**
 * The scene definition format, version 1, as the API accepts it (docs/scenes.md; its meaning is in
 * protocol/src/scene.ts), and the scene resources around it. Objects are strict; every limit and every
 * cross-reference is checked here, so a definition that passes is one the engine and the renderer can use.
 */
import { z } from 'zod';
import {
  BUILT_IN_ANIMATIONS,
  CLOCK_DIRECTIONS,
  EASINGS,
  EDGES,
  INPUT_SCOPES,
  INPUT_TYPES,
  LIST_COLUMN_TYPES,
  SCENE_FORMAT_VERSION,
  clockStop,
  type GraphicRef,
  type InputDef,
  type SceneDefinition,
  type Transition,
  type TriggerDef,
} from '@onair/protocol';
import { DEFAULT_MAX_ROWS } from '../engine/list-value.js';
import { resolvePeriods } from './clock-checks.js';
import { checkDefinition } from './definition-checks.js';
import {
  Coord,
  Degrees,
  DurationMs,
  InputName,
  Opacity,
  SCENE_LIMITS,
  Scale,
  SceneElementIn,
  guardGroupDepth,
  stringOrObject,
} from './element-schemas.js';
import { InputValueSchema } from './input-value-schema.js';

export { InputName, SCENE_LIMITS };

const ClockPeriodIn = z
  .strictObject({
    name: z.string().trim().min(1).max(50).meta({ description: 'What a clock element with format `period` shows.' }),
    startAt: z.number().optional().meta({
      description:
        "ms shown when the period begins; default: counting up, the previous period's stop; down, the clock's default.",
    }),
    stopAt: z
      .number()
      .nullable()
      .optional()
      .meta({ description: 'ms at which the clock stops in this period; default 0 down, null up.' }),
  })
  .meta({ id: 'ClockPeriod' });

const ListColumnIn = z
  .strictObject({
    name: InputName.meta({ description: 'What `{name}` placeholders in a rows element show.' }),
    type: z.enum(LIST_COLUMN_TYPES),
  })
  .meta({ id: 'ListColumn' });

export const InputDefIn = z
  .strictObject({
    name: InputName,
    type: z.enum(INPUT_TYPES),
    label: z.string().max(200).optional().meta({ description: 'Defaults to the name.' }),
    scope: z.enum(INPUT_SCOPES).optional().meta({
      description:
        '`channel` (absent): one value shared by every scene of the channel. `item`: each instance on a bus carries its own (a name, a title). A clock is always `channel`.',
    }),
    default: InputValueSchema.optional().meta({ description: "A value of the type; a clock's is milliseconds." }),
    direction: z.enum(CLOCK_DIRECTIONS).optional().meta({ description: 'Clocks only; default `up`.' }),
    stopAt: z
      .number()
      .nullable()
      .optional()
      .meta({ description: 'Clocks only: ms at which a running clock stops; default 0 down, null up.' }),
    periods: z
      .array(ClockPeriodIn)
      .min(1)
      .max(SCENE_LIMITS.periods)
      .optional()
      .meta({ description: "Clocks only: the game's periods, in order (halves, quarters); replaces stopAt." }),
    options: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(SCENE_LIMITS.options)
      .optional()
      .meta({ description: 'Selects only (required there): the values it may take, distinct.' }),
    columns: z
      .array(ListColumnIn)
      .min(1)
      .max(SCENE_LIMITS.listColumns)
      .optional()
      .meta({ description: "Lists only (required there): each row's columns, distinct names." }),
    maxRows: z
      .number()
      .int()
      .min(1)
      .max(SCENE_LIMITS.listRows)
      .optional()
      .meta({ description: 'Lists only: the most rows the value may hold; default 20.' }),
  })
  .meta({ id: 'SceneInput' });

const TransitionIn = z
  .strictObject({
    type: z.enum(['cut', 'fade', 'slide', 'wipe']),
    from: z.enum(EDGES).optional(),
    durationMs: DurationMs.optional().meta({ description: 'Default 0 for a cut, 500 otherwise.' }),
    easing: z.enum(EASINGS).optional().meta({ description: 'Default `ease-out` in, `ease-in` out.' }),
  })
  .superRefine((t, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (t.type === 'cut' && t.durationMs !== undefined && t.durationMs !== 0)
      issue('durationMs', 'a cut is instant: give 0 or leave it out');
    if (t.type === 'cut' && t.easing !== undefined) issue('easing', 'a cut has no easing');
    if (t.from !== undefined && t.type !== 'slide' && t.type !== 'wipe')
      issue('from', 'only slide and wipe have an edge');
  })
  .meta({ id: 'Transition' });

const KeyframeIn = z
  .strictObject({
    at: z.number().min(0).max(1),
    opacity: Opacity.optional(),
    scale: Scale.optional(),
    rotation: Degrees.optional(),
    dx: Coord.optional(),
    dy: Coord.optional(),
    brightness: z.number().min(0).max(10).optional(),
  })
  .meta({ id: 'Keyframe' });

const TriggerDefIn = z
  .strictObject({
    name: InputName,
    animation: stringOrObject(
      z.enum(BUILT_IN_ANIMATIONS),
      z.strictObject({ keyframes: z.array(KeyframeIn).min(1).max(SCENE_LIMITS.keyframes) }),
      `one of ${BUILT_IN_ANIMATIONS.join(', ')}, or { keyframes }`,
    )
      .optional()
      .meta({ description: 'Required, except on a custom action trigger of a scene made from a graphic.' }),
    customAction: z.string().min(1).max(200).optional().meta({
      description:
        "Scenes made from a graphic: the id of the graphic's custom action the trigger runs (docs/ograf.md).",
    }),
    targets: z.array(InputName).min(1).max(SCENE_LIMITS.elements).optional(),
    durationMs: DurationMs.optional().meta({ description: 'Default 600.' }),
    on: InputName.optional().meta({ description: 'An input: the trigger fires whenever its value changes.' }),
  })
  .meta({ id: 'Trigger' });

/**
 * A scene drawn by an imported OGraf graphic (docs/ograf.md). The server fills it in from the graphic (`POST …/scenes`
 * with `graphic`); in a definition sent back, only `id` and `data` count: the rest is read again from the graphic.
 */
const GraphicRefIn = z
  .strictObject({
    id: z.string().min(1).max(100).meta({ description: 'The imported graphic (`gr_…`).' }),
    graphicId: z.string().max(500).optional(),
    version: z.string().max(500).optional(),
    main: z.string().max(500).optional(),
    stepCount: z.number().int().min(-1).optional(),
    data: z
      .array(
        z.strictObject({
          input: InputName,
          path: z.array(z.string().min(1).max(200)).min(1).max(8),
        }),
      )
      .max(SCENE_LIMITS.inputs)
      .default([])
      .meta({ description: "Where each input goes in the graphic's data." }),
    base: z
      .string()
      .max(500)
      .optional()
      .meta({ description: "Where the graphic's files are served (set by the server)." }),
  })
  .meta({ id: 'SceneGraphic' });

export const SceneDefinitionIn = z
  .strictObject({
    version: z
      .literal(SCENE_FORMAT_VERSION, {
        error: `this server reads scene format version ${SCENE_FORMAT_VERSION} (docs/scenes.md)`,
      })
      .default(SCENE_FORMAT_VERSION),
    graphic: GraphicRefIn.optional(),
    layer: z.number().int().min(0).max(99).default(0),
    inputs: z.array(InputDefIn).max(SCENE_LIMITS.inputs).default([]),
    elements: z.preprocess(guardGroupDepth, z.array(SceneElementIn).max(SCENE_LIMITS.elements)).default([]),
    transitions: z
      .strictObject({ in: TransitionIn.optional(), out: TransitionIn.optional() })
      .default({ in: { type: 'cut' }, out: { type: 'cut' } }),
    triggers: z.array(TriggerDefIn).max(SCENE_LIMITS.triggers).default([]),
  })
  .superRefine(checkDefinition)
  .meta({ id: 'SceneDefinition' });

export type SceneDefinitionInput = z.output<typeof SceneDefinitionIn>;

export const SceneIn = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    template: z.string().max(100).optional().meta({ example: 'scoreboard' }),
    definition: SceneDefinitionIn.optional(),
    graphic: z.string().min(1).max(100).optional().meta({
      description: 'An imported OGraf graphic (`gr_…`): the scene it makes draws it (docs/ograf.md).',
    }),
    layer: z.number().int().min(0).max(99).optional().meta({ description: 'With `graphic`: its layer (default 0).' }),
  })
  .refine((s) => [s.template, s.definition, s.graphic].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of "template", "definition" or "graphic"',
    path: ['template'],
  })
  .refine((s) => s.layer === undefined || s.graphic !== undefined, {
    message: 'only a scene made from a graphic takes "layer" here (a definition has its own)',
    path: ['layer'],
  })
  .meta({ id: 'SceneIn' });

export const SceneUpdate = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), definition: SceneDefinitionIn })
  .meta({ id: 'SceneUpdate' });

/** The definition as it is stored: every default the format has is written out (docs/scenes.md). */
export function normaliseDefinition(def: SceneDefinitionInput): SceneDefinition {
  return {
    version: SCENE_FORMAT_VERSION,
    ...(def.graphic === undefined ? {} : { graphic: def.graphic as GraphicRef }),
    layer: def.layer,
    inputs: normaliseInputs(def.inputs),
    elements: def.elements,
    transitions: {
      in: normaliseTransition(def.transitions.in, 'in'),
      out: normaliseTransition(def.transitions.out, 'out'),
    },
    triggers: def.triggers.map(normaliseTrigger),
  };
}

/**
 * Fills label and default (and a clock's direction and stop) so the stored inputs are complete. A scope is kept as
 * given: absent means `channel`, and definitions stored before scopes existed have none.
 */
export function normaliseInputs(inputs: z.infer<typeof InputDefIn>[]): InputDef[] {
  return inputs.map((i) => {
    const def: InputDef = {
      name: i.name,
      type: i.type,
      label: i.label ?? i.name,
      ...(i.scope === undefined ? {} : { scope: i.scope }),
      default: i.default ?? i.periods?.[0]?.startAt ?? defaultFor(i.type, i.options),
    };
    if (i.type === 'select') return { ...def, options: i.options ?? [] };
    if (i.type === 'list') return { ...def, columns: i.columns ?? [], maxRows: i.maxRows ?? DEFAULT_MAX_ROWS };
    if (i.type !== 'clock') return def;
    const direction = i.direction ?? 'up';
    if (i.periods !== undefined)
      return { ...def, direction, periods: resolvePeriods(direction, def.default as number, i.periods) };
    return { ...def, direction, stopAt: i.stopAt === undefined ? clockStop({ direction }) : i.stopAt };
  });
}

function defaultFor(type: InputDef['type'], options: string[] | undefined): InputDef['default'] {
  if (type === 'select') return options?.[0] ?? null;
  if (type === 'number' || type === 'clock') return 0;
  if (type === 'boolean') return false;
  if (type === 'text') return '';
  if (type === 'list') return [];
  return null;
}

const DEFAULT_EASING = { in: 'ease-out', out: 'ease-in' } as const;

function normaliseTransition(t: z.infer<typeof TransitionIn> | undefined, way: 'in' | 'out'): Transition {
  if (t === undefined || t.type === 'cut') return { type: 'cut', durationMs: 0 };
  const out: Transition = { type: t.type, durationMs: t.durationMs ?? 500, easing: t.easing ?? DEFAULT_EASING[way] };
  return t.type === 'fade' ? out : { ...out, from: t.from ?? 'left' };
}

/** The trigger's duration is written out (600 ms unless given); a custom action's is the graphic's own. */
function normaliseTrigger(t: z.infer<typeof TriggerDefIn>): TriggerDef {
  if (t.customAction !== undefined) return t;
  return { ...t, durationMs: t.durationMs ?? 600 };
}

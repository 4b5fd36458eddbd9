/**
 * The scene definition format accepted over the API (see src/protocol/scene.ts for its meaning).
 */
import { z } from '@hono/zod-openapi';
import { checkValue } from '../../engine/index.js';
import { INPUT_TYPES, type InputDef } from '../../protocol/index.js';

const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']);
export const InputName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be 1–64 letters, digits or _, not starting with a digit')
  .refine((n) => !RESERVED.has(n), 'is a reserved name');

const Coord = z.number().min(-10_000).max(10_000);
const Size = z.number().min(0).max(10_000);
const Template = z.string().max(4096);
const box = { x: Coord, y: Coord, width: Size, height: Size, visibleIf: InputName.optional() };

const TextLayer = z.strictObject({
  type: z.literal('text'),
  ...box,
  text: Template,
  fontSize: z.number().min(1).max(1000),
  fontFamily: z.string().max(200).optional(),
  fontWeight: z.number().int().min(100).max(1000).optional(),
  color: Template.optional(),
  background: Template.optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
});
const RectLayer = z.strictObject({
  type: z.literal('rect'),
  ...box,
  color: Template,
  radius: Size.optional(),
  opacity: z.number().min(0).max(1).optional(),
});
const ImageLayer = z.strictObject({
  type: z.literal('image'),
  ...box,
  src: Template,
  fit: z.enum(['contain', 'cover', 'fill']).optional(),
});
export const Layer = z.discriminatedUnion('type', [TextLayer, RectLayer, ImageLayer]).openapi('Layer');

export const InputDefIn = z.strictObject({
  name: InputName,
  type: z.enum(INPUT_TYPES),
  label: z.string().max(200).optional(),
  default: z.union([z.number(), z.string(), z.boolean(), z.null()]).optional(),
});

export const SceneDefinitionIn = z
  .strictObject({
    inputs: z.array(InputDefIn).max(200).default([]),
    triggers: z.array(InputName).max(100).default([]),
    layers: z.array(Layer).max(500).default([]),
  })
  .superRefine((def, ctx) => {
    const seen = new Set<string>();
    def.inputs.forEach((input, i) => {
      if (seen.has(input.name))
        ctx.addIssue({ code: 'custom', path: ['inputs', i, 'name'], message: `duplicate input "${input.name}"` });
      seen.add(input.name);
      if (input.default === undefined || input.default === null) return;
      try {
        checkValue({ ...input, label: '', default: null }, input.default, input.name);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['inputs', i, 'default'], message: (err as Error).message });
      }
    });
    if (new Set(def.triggers).size !== def.triggers.length)
      ctx.addIssue({ code: 'custom', path: ['triggers'], message: 'duplicate trigger' });
  })
  .openapi('SceneDefinition');

export const SceneIn = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    template: z.string().max(100).optional().openapi({ example: 'scoreboard' }),
    definition: SceneDefinitionIn.optional(),
  })
  .refine((s) => (s.template === undefined) !== (s.definition === undefined), {
    message: 'give exactly one of "template" or "definition"',
    path: ['template'],
  })
  .openapi('SceneIn');

export const SceneUpdate = z
  .strictObject({ name: z.string().trim().min(1).max(200).optional(), definition: SceneDefinitionIn })
  .openapi('SceneUpdate');

const InputDefOut = z.object({
  name: z.string(),
  type: z.enum(INPUT_TYPES),
  label: z.string(),
  default: z.union([z.number(), z.string(), z.boolean(), z.null()]),
});
export const SceneOut = z
  .object({
    id: z.string(),
    channelId: z.string(),
    name: z.string(),
    inputs: z.array(InputDefOut),
    triggers: z.array(z.string()),
    definition: z.any(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Scene');

/** Fills label and default so the stored definition is complete. */
export function normaliseInputs(inputs: z.infer<typeof InputDefIn>[]): InputDef[] {
  return inputs.map((i) => ({
    name: i.name,
    type: i.type,
    label: i.label ?? i.name,
    default: i.default ?? defaultFor(i.type),
  }));
}

function defaultFor(type: InputDef['type']): InputDef['default'] {
  if (type === 'number') return 0;
  if (type === 'boolean') return false;
  if (type === 'text') return '';
  return null;
}

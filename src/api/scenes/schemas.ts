/** What the scene routes answer, for the OpenAPI document (docs/scenes.md). Inputs are the scene format's (src/scenes). */
import { z } from '@hono/zod-openapi';
import { CLOCK_DIRECTIONS, INPUT_SCOPES, INPUT_TYPES } from '@onair/protocol';
import { SceneDefinitionIn } from '../../scenes/definition-schema.js';

const InputValueOut = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const InputDefOut = z.object({
  name: z.string(),
  type: z.enum(INPUT_TYPES),
  label: z.string(),
  scope: z.enum(INPUT_SCOPES).optional().meta({ description: 'Absent: `channel`.' }),
  default: InputValueOut,
  direction: z.enum(CLOCK_DIRECTIONS).optional(),
  stopAt: z.number().nullable().optional(),
});

export const SceneOut = z
  .object({
    id: z.string(),
    channelId: z.string(),
    name: z.string(),
    layer: z.number().int().meta({ description: 'The layer it takes on a bus (0–99), from its definition.' }),
    inputs: z.array(InputDefOut),
    triggers: z.array(z.string()).meta({ description: 'The names of its triggers.' }),
    definition: SceneDefinitionIn,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Scene' });

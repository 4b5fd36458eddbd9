/** What the scene routes answer, for the OpenAPI document (docs/scenes.md). Inputs are the scene format's (src/scenes). */
import { z } from '@hono/zod-openapi';
import { ACTOR_TYPES, CLOCK_DIRECTIONS, INPUT_SCOPES, INPUT_TYPES } from '@onair/protocol';
import { SceneDefinitionIn } from '../../scenes/definition-schema.js';
import { InputValueSchema } from '../../scenes/input-value-schema.js';

export const InputDefOut = z.object({
  name: z.string(),
  type: z.enum(INPUT_TYPES),
  label: z.string(),
  scope: z.enum(INPUT_SCOPES).optional().meta({ description: 'Absent: `channel`.' }),
  default: InputValueSchema,
  direction: z.enum(CLOCK_DIRECTIONS).optional(),
  stopAt: z.number().nullable().optional(),
  periods: z
    .array(z.object({ name: z.string(), startAt: z.number(), stopAt: z.number().nullable() }))
    .optional()
    .meta({ description: "Clocks with periods: each period's name and times, written out." }),
  options: z.array(z.string()).optional().meta({ description: 'Selects only: the values it may take.' }),
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

/** Who saved a version: a dashboard user (id, email), an API key (id, name), or the server itself. */
const SavedBy = z
  .object({
    type: z.enum(ACTOR_TYPES),
    id: z.string(),
    name: z.string().meta({ description: "The user's email or the key's name; `onair` for the server itself." }),
  })
  .meta({ id: 'SceneVersionSavedBy' });

export const SceneVersionOut = z
  .object({
    version: z.number().int().meta({ description: '1 for the scene as created, one more for each save since.' }),
    name: z.string(),
    savedAt: z.string(),
    savedBy: SavedBy,
  })
  .meta({ id: 'SceneVersion' });

export const SceneVersionList = z
  .object({ data: z.array(SceneVersionOut).meta({ description: 'Newest first; the last 50 saves.' }) })
  .meta({ id: 'SceneVersionList' });

/** What the inputs and state routes answer, for the OpenAPI document. */
import { z } from '@hono/zod-openapi';
import { InputValueSchema } from '../../scenes/input-value-schema.js';

export const InputsResult = z
  .object({
    channelId: z.string(),
    frame: z.number().int().openapi({ description: 'The frame in which the change is first rendered.' }),
    inputs: z.record(z.string(), InputValueSchema),
  })
  .openapi('InputsResult');

const ClockStateOut = z
  .object({
    running: z.boolean(),
    ms: z.number(),
    at: z.number(),
    period: z.number().int().optional().meta({ description: 'For a clock with periods: the current one (0 first).' }),
  })
  .openapi('ClockState');

export const StateOut = z
  .object({
    channelId: z.string(),
    frame: z.number().int(),
    serverTime: z.string(),
    fps: z.number(),
    program: z
      .array(
        z.object({
          sceneId: z.string(),
          layer: z.number().int(),
          since: z.string(),
          itemId: z.string().nullable(),
          values: z.record(z.string(), InputValueSchema),
        }),
      )
      .openapi({ description: 'What is on air: one scene per layer, sorted by layer, with when it went to air.' }),
    preview: z
      .array(
        z.object({
          sceneId: z.string(),
          layer: z.number().int(),
          itemId: z.string().nullable(),
          values: z.record(z.string(), InputValueSchema),
        }),
      )
      .openapi({ description: 'What is cued: one scene per layer, sorted by layer.' }),
    inputs: z
      .record(z.string(), InputValueSchema)
      .openapi({ description: 'The effective value of every declared input but the clocks.' }),
    clocks: z.record(z.string(), ClockStateOut).openapi({
      description: 'Every declared clock: `ms` at server time `at`, moving on while `running`.',
    }),
    updatedAt: z.string(),
  })
  .openapi('State');

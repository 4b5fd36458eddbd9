import { z } from '@hono/zod-openapi';

export const MAX_INPUTS_PER_PATCH = 100;

const InputValueSchema = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const InputsPatch = z.record(z.string(), InputValueSchema).openapi('InputsPatch', {
  description:
    'Input name → new value; null returns an input to its scene default. At most 100 inputs; all or nothing.',
  example: { scoreA: 3, scoreB: 1 },
});

export const InputsResult = z
  .object({
    channelId: z.string(),
    frame: z.number().int().openapi({ description: 'The frame in which the change is first rendered.' }),
    inputs: z.record(z.string(), InputValueSchema),
  })
  .openapi('InputsResult');

export const StateOut = z
  .object({
    channelId: z.string(),
    frame: z.number().int(),
    serverTime: z.string(),
    fps: z.number(),
    program: z.object({ sceneId: z.string(), since: z.string() }).nullable(),
    preview: z.object({ sceneId: z.string() }).nullable(),
    inputs: z.record(z.string(), InputValueSchema),
    clocks: z.record(z.string(), z.object({ running: z.boolean(), ms: z.number(), at: z.number() })),
    updatedAt: z.string(),
  })
  .openapi('State');

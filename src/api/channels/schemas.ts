import { z } from '@hono/zod-openapi';
import { FRAME_RATES } from '../../engine/index.js';

const Fps = z
  .number()
  .refine((v) => (FRAME_RATES as readonly number[]).includes(v), {
    message: `must be one of ${FRAME_RATES.join(', ')}`,
  })
  .openapi({ enum: [...FRAME_RATES], example: 60 });

const Name = z.string().trim().min(1, 'must not be empty').max(200);

export const ChannelIn = z
  .strictObject({
    name: Name,
    fps: Fps.optional(),
    width: z.number().int().min(16).max(7680).optional().openapi({ example: 1920 }),
    height: z.number().int().min(16).max(4320).optional().openapi({ example: 1080 }),
  })
  .openapi('ChannelIn');
export type ChannelIn = z.infer<typeof ChannelIn>;

export const ChannelUpdate = z.strictObject({ name: Name.optional(), fps: Fps.optional() }).openapi('ChannelUpdate');
export type ChannelUpdate = z.infer<typeof ChannelUpdate>;

export const ChannelOut = z
  .object({
    id: z.string(),
    name: z.string(),
    fps: z.number(),
    width: z.number().int(),
    height: z.number().int(),
    outputUrl: z.string().openapi({ description: 'Open in OBS/vMix/CasparCG as a browser source. Read-only token.' }),
    previewUrl: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Channel');
export type ChannelOut = z.infer<typeof ChannelOut>;

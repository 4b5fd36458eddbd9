/** What the channel routes answer, for the OpenAPI document. Inputs are the operations' (operations/channels.ts). */
import { z } from '@hono/zod-openapi';

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

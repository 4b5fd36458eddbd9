/** What the outputs route answers, for the OpenAPI document (docs/outputs.md). */
import { z } from '@hono/zod-openapi';
import { OUTPUT_HEALTHS, OUTPUT_KINDS } from '@onair/protocol';

const PaintedLayerOut = z
  .object({ layer: z.number().int(), sceneId: z.string(), itemId: z.string().nullable(), inDone: z.boolean() })
  .openapi('PaintedLayer');

const OutputErrorOut = z
  .object({
    at: z.string(),
    message: z.string(),
    url: z.string().nullable().openapi({ description: 'Never carries the output token.' }),
  })
  .openapi('OutputError');

export const OutputOut = z
  .object({
    id: z.string().openapi({ example: 'out_01a20a2171e87152a02191f46d39c561' }),
    kind: z.enum(OUTPUT_KINDS),
    bus: z.enum(['program', 'preview']),
    address: z.string(),
    connectedAt: z.string(),
    reportedAt: z.string(),
    paintedFrame: z.number().int(),
    lagFrames: z.number().int(),
    fps: z.number(),
    size: z.object({ width: z.number().int(), height: z.number().int() }),
    visible: z.boolean().nullable().openapi({ description: 'OBS only: shown in some view; null elsewhere.' }),
    active: z.boolean().nullable().openapi({ description: 'OBS only: on program; null elsewhere.' }),
    errors: z.array(OutputErrorOut),
    health: z.enum(OUTPUT_HEALTHS),
    layers: z.array(PaintedLayerOut),
  })
  .openapi('Output');

export const OutputListOut = z
  .object({
    data: z.array(OutputOut),
    nextCursor: z.null(),
    refused: z
      .object({ count: z.number().int(), lastAt: z.string(), lastAddress: z.string() })
      .nullable()
      .openapi({ description: 'Output pages refused for a wrong or rotated token, on this server.' }),
  })
  .openapi('OutputList');

/**
 * The OGraf Server API's graphics (docs/ograf.md, "Server API"): the workspace's imported OGraf graphics, by their
 * onair id (`gr_…`, one per id and version), over the REST API's operations (operations/graphics.ts).
 */
import type { Context, Hono } from 'hono';
import { deleteGraphic, getGraphic, listGraphics, type GraphicView } from '../../operations/index.js';
import type { ApiEnv } from '../env.js';
import type { ChannelCalls } from './channel-calls.js';
import type { Answer } from './answers.js';

type Answerer = <P extends '/graphics' | '/graphics/{graphicId}', M extends 'get' | 'delete'>(
  c: Context<ApiEnv>,
  body: Answer<P, M>,
) => Response;

export function graphicRoutes(app: Hono<ApiEnv>, calls: (c: Context<ApiEnv>) => ChannelCalls, answer: Answerer) {
  app.get('/v1/graphics', async (c) => {
    const graphics = await calls(c).pages<GraphicView>((cursor) =>
      calls(c).run(listGraphics, undefined, { limit: 100, ...(cursor ? { cursor } : {}) }),
    );
    return answer<'/graphics', 'get'>(c, {
      graphics: graphics.map((g) => ({
        id: g.id,
        name: g.name,
        ...(g.description ? { description: g.description } : {}),
      })),
    });
  });

  app.get('/v1/graphics/:graphicId', async (c) => {
    const g = await calls(c).run(getGraphic, undefined, { graphicId: c.req.param('graphicId') });
    // The draft's answer lists `manifest` as required beside `graphic` (which it describes): both carry it.
    return answer<'/graphics/{graphicId}', 'get'>(c, {
      graphic: g.manifest as Answer<'/graphics/{graphicId}', 'get'>['graphic'],
      manifest: g.manifest,
      metadata: { createdAt: g.createdAt },
    });
  });

  app.delete('/v1/graphics/:graphicId', async (c) => {
    await calls(c).run(deleteGraphic, undefined, { graphicId: c.req.param('graphicId') });
    return answer<'/graphics/{graphicId}', 'delete'>(c, {});
  });
}

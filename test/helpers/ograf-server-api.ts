/**
 * The answers of the OGraf Server API draft 1.0.0 (ebu/ograf, v1/specification/open-api/server-api.yaml), written
 * out by hand from the YAML as zod schemas: required fields required, types as the draft gives them, extra fields
 * allowed (the draft's objects allow them). A test parses every answer with the schema of its route and status.
 */
import { z } from 'zod';

export const ErrorResponse = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
});

const Author = z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() });
const RenderTargetIdentifier = z.record(z.string(), z.unknown());
const GraphicListInfo = z.object({ id: z.string(), name: z.string(), description: z.string().optional() });

export const ServerInfo = z.object({
  name: z.string(),
  description: z.string().optional(),
  author: Author.optional(),
  version: z.string().optional(),
});

export const RendererList = z.object({
  renderers: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().optional() })),
});

export const RenderTargetInfo = z.object({
  renderTarget: RenderTargetIdentifier,
  name: z.string(),
  description: z.string().optional(),
  graphicInstances: z.array(z.object({ graphicInstanceId: z.string(), graphic: GraphicListInfo })),
});

const ShallowProperty = z.object({ type: z.enum(['boolean', 'integer', 'number', 'string']) });

export const RendererInfoAnswer = z.object({
  renderer: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    customActions: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
    renderCharacteristics: z
      .object({
        resolution: z.object({ width: z.number(), height: z.number() }).optional(),
        frameRate: z.number().optional(),
        accessToPublicInternet: z.boolean().optional(),
      })
      .optional(),
    renderTargetSchema: z
      .object({ type: z.literal('object'), properties: z.record(z.string(), ShallowProperty) })
      .optional(),
    status: z.object({ status: z.enum(['OK', 'WARNING', 'ERROR']), message: z.string().optional() }),
    renderTargets: z.array(RenderTargetInfo),
  }),
});

export const ClearGraphicsResponse = z.object({
  graphicInstances: z.array(z.object({ renderTarget: RenderTargetIdentifier, graphicInstanceId: z.string() })),
});

export const ActionAnswer = z.object({
  graphicInstanceId: z.string(),
  statusCode: z.number(),
  statusMessage: z.string().optional(),
});

export const PlayActionAnswer = ActionAnswer.extend({ currentStep: z.number() });

export const RendererCustomActionAnswer = z.object({ result: z.unknown().optional() });

export const GraphicList = z.object({ graphics: z.array(GraphicListInfo) });

/** The draft lists both `graphic` (the manifest) and `manifest` as required. */
export const GraphicInfo = z.object({
  graphic: z.record(z.string(), z.unknown()),
  manifest: z.record(z.string(), z.unknown()),
  metadata: z.object({ createdAt: z.string() }).optional(),
});

export const Empty = z.object({});

/**
 * The request bodies of the OGraf Server API (draft 1.0.0, specification/open-api/server-api.yaml), as zod schemas.
 * Vendor fields (`v_…`) and anything else the draft does not name pass through, as the draft allows.
 */
import { z } from 'zod';

const Target = z.unknown();
const InstanceId = z.string().min(1).max(200);

export const LoadBody = z.object({
  renderTarget: Target,
  graphicId: z.string().min(1).max(300),
  params: z.object({ data: z.unknown() }),
});

const Addressed = { renderTarget: Target, graphicInstanceId: InstanceId };

export const UpdateBody = z.object({
  ...Addressed,
  params: z.object({ data: z.unknown(), skipAnimation: z.boolean().optional() }),
});

export const PlayBody = z.object({
  ...Addressed,
  params: z.object({
    delta: z.number().optional(),
    goto: z.number().optional(),
    skipAnimation: z.boolean().optional(),
  }),
});

export const StopBody = z.object({ ...Addressed, params: z.object({ skipAnimation: z.boolean().optional() }) });

export const CustomActionBody = z.object({
  ...Addressed,
  params: z.object({ payload: z.unknown(), skipAnimation: z.boolean().optional() }),
});

export const RendererActionBody = z.object({ payload: z.unknown(), skipAnimation: z.boolean().optional() });

const Filter = z.object({
  renderTarget: Target.optional(),
  graphicId: z.string().optional(),
  graphicInstanceId: z.string().optional(),
});
export const ClearBody = z.object({ filters: z.array(Filter).max(200) });
export type ClearFilter = z.infer<typeof Filter>;

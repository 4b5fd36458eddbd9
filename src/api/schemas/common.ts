import { z } from '@hono/zod-openapi';

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string().openapi({ example: 'invalid_request' }),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Problem');

export const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ example: 50 }),
  cursor: z.string().max(100).optional(),
});

/** A path parameter naming a resource: 1–100 characters. */
export function pathParam(name: string) {
  return z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name, in: 'path' } });
}

export const ChannelIdParam = z.object({ id: pathParam('id').openapi({ example: 'ch_0190…' }) });

/** A page of a creation-ordered list (docs/api.md, "Conventions"). */
export function page<T extends { id: string }>(items: T[], limit: number): { data: T[]; nextCursor: string | null } {
  const data = items.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: items.length > limit && last ? last.id : null };
}

export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() }).openapi(name);
}

/** An OpenAPI JSON body or response content for `schema`. */
export function json<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } } };
}

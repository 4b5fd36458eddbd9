/** Lists in creation order, a page at a time (docs/api.md, "Conventions"). */
import { z } from 'zod';

/** `?limit=&cursor=`: 1–100 per page (default 50), after the id `cursor`. */
export const PageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ example: 50 }),
  cursor: z.string().max(100).optional(),
};
export const Paging = z.strictObject(PageQuery);

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** A page of a creation-ordered list from up to `limit + 1` items: the extra one says that more follow. */
export function page<T extends { id: string }>(items: T[], limit: number): Page<T> {
  const data = items.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: items.length > limit && last ? last.id : null };
}

/** The id of a resource named in a path: 1–100 characters (a longer one names nothing). */
export const ResourceId = z.string().min(1).max(100);

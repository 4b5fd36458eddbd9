/**
 * The shape of an input value where one crosses a boundary (answers, forwarded ops, rundown items): a number,
 * text, a boolean, null, or a list input's rows. Only the shape: whether a value fits its input (a number for a
 * number input, a list's columns and row limit) is checked by checkValue (engine/input-registry.ts).
 */
import { z } from 'zod';

export const ListRowSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .meta({ id: 'ListRow', description: "One row of a list input: a column's name to its text or number." });

export const InputValueSchema = z.union([z.number(), z.string(), z.boolean(), z.null(), z.array(ListRowSchema)]);

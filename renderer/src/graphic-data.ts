/**
 * The `data` an OGraf graphic is given (its manifest's `schema` describes it): each input of the scene put back at
 * its path in the graphic's object (`team_name` at `team.name`), with the value the instance draws. Inputs with no
 * value are left out, so the graphic keeps its own default for them. Pure, so the tests run in Node.
 */
import type { GraphicRef, InputValue } from '@onair/protocol';

/** Keys that would reach an object's prototype instead of making a field. */
const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);

export type GraphicData = Record<string, unknown>;

export function graphicData(
  mapping: GraphicRef['data'],
  value: (input: string) => InputValue | undefined,
): GraphicData {
  const data: GraphicData = {};
  for (const { input, path } of mapping) {
    const v = value(input);
    if (v === undefined || v === null || path.length === 0 || path.some((key) => UNSAFE.has(key))) continue;
    let target = data;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) target[key] = {};
      target = target[key] as GraphicData;
    }
    target[path[path.length - 1]!] = v;
  }
  return data;
}

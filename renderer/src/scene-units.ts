/**
 * How a scene's top-level elements are split for its `in` transition: runs of elements without a delay
 * enter together (one wrapper, so a fade or wipe treats them as one picture), and each element with a
 * `delayMs` enters on its own, that much later. Document order, and so paint order, is kept. Pure.
 */
import type { SceneElement } from '@onair/protocol';

export interface Unit {
  delayMs: number;
  elements: SceneElement[];
}

export function entranceUnits(elements: readonly SceneElement[]): Unit[] {
  const units: Unit[] = [];
  for (const el of elements) {
    const delayMs = Math.max(0, el.delayMs ?? 0);
    const last = units[units.length - 1];
    if (delayMs === 0 && last && last.delayMs === 0) last.elements.push(el);
    else units.push({ delayMs, elements: [el] });
  }
  return units;
}

/** The centre of the box around the top-level elements: where a whole-scene pulse grows from. */
export function sceneCentre(elements: readonly SceneElement[], stage: { width: number; height: number }): string {
  if (elements.length === 0) return `${stage.width / 2}px ${stage.height / 2}px`;
  const left = Math.min(...elements.map((e) => e.x));
  const top = Math.min(...elements.map((e) => e.y));
  const right = Math.max(...elements.map((e) => e.x + e.width));
  const bottom = Math.max(...elements.map((e) => e.y + e.height));
  return `${(left + right) / 2}px ${(top + bottom) / 2}px`;
}

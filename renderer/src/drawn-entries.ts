/**
 * Which bus entry each drawn scene takes its own values from (its item inputs: a name, a title). A scene drawn on a
 * layer shows the entry the bus holds on that layer, so a value updated on air is drawn in the next pass. While the
 * layer waits to change to another scene (its fonts are loading), the scene still drawn keeps the entry it last
 * showed: it never falls back to the channel's values, nor takes the next scene's. Pure, so the tests run in Node.
 */
import type { BusEntry, SceneView } from '@onair/protocol';

export interface DrawnEntries {
  /** The entry whose values `drawn` (a scene drawn on `layer`) shows, given the entries of the bus it draws. */
  entryFor(drawn: { readonly scene: SceneView }, layer: number, bus: readonly BusEntry[]): BusEntry | undefined;
}

export function createDrawnEntries(): DrawnEntries {
  // Keyed by the drawn scene object: a new drawing of a layer starts with no memory, and a removed one is forgotten.
  const last = new WeakMap<object, BusEntry>();
  return {
    entryFor(drawn, layer, bus) {
      const entry = bus.find((e) => e.layer === layer);
      if (entry?.sceneId !== drawn.scene.id) return last.get(drawn);
      last.set(drawn, entry);
      return entry;
    },
  };
}

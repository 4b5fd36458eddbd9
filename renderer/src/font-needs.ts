/** The typefaces a scene draws with, as CSS font shorthands for document.fonts.load. Pure. */
import { forEachElement, type SceneDefinition } from '@onair/protocol';
import { DEFAULT_FONT, fontWeight } from './element-style.js';

const cache = new WeakMap<SceneDefinition, readonly string[]>();

/** One `"<weight> 16px "<family>"` per face the scene's text, clock and crawl elements use, computed once. */
export function fontSpecs(definition: SceneDefinition): readonly string[] {
  let specs = cache.get(definition);
  if (!specs) {
    const unique = new Set<string>();
    // A definition the page cannot read needs no font; drawing it fails on its own layer (stage.ts).
    const elements = Array.isArray(definition.elements) ? definition.elements : [];
    forEachElement(elements, (el) => {
      if (el.type === 'text' || el.type === 'clock' || el.type === 'crawl') {
        unique.add(`${fontWeight(el)} 16px "${el.fontFamily ?? DEFAULT_FONT}"`);
      }
    });
    specs = [...unique];
    cache.set(definition, specs);
  }
  return specs;
}

/** The typefaces a scene draws with, as CSS font shorthands for document.fonts.load, and its fonts of the library. Pure. */
import { fontAssetRef, forEachElement, type AssetRef, type SceneDefinition } from '@onair/protocol';
import { fontFamilyName, fontWeight } from './element-style.js';

interface FontNeeds {
  specs: readonly string[];
  library: readonly AssetRef[];
}

const cache = new WeakMap<SceneDefinition, FontNeeds>();

function needs(definition: SceneDefinition): FontNeeds {
  let found = cache.get(definition);
  if (!found) {
    const specs = new Set<string>();
    const library = new Map<string, AssetRef>();
    // A definition the page cannot read needs no font; drawing it fails on its own layer (stage.ts).
    const elements = Array.isArray(definition.elements) ? definition.elements : [];
    forEachElement(elements, (el) => {
      if (el.type !== 'text' && el.type !== 'clock' && el.type !== 'crawl') return;
      specs.add(`${fontWeight(el)} 16px "${fontFamilyName(el.fontFamily)}"`);
      const ref = el.fontFamily === undefined ? null : fontAssetRef(el.fontFamily);
      if (ref) library.set(ref.path, ref);
    });
    found = { specs: [...specs], library: [...library.values()] };
    cache.set(definition, found);
  }
  return found;
}

/** One `"<weight> 16px "<family>"` per face the scene's text, clock and crawl elements use, computed once. */
export function fontSpecs(definition: SceneDefinition): readonly string[] {
  return needs(definition).specs;
}

/** The fonts of the asset library the scene's text, clock and crawl elements name, each once. */
export function libraryFonts(definition: SceneDefinition): readonly AssetRef[] {
  return needs(definition).library;
}

/**
 * How deep JSON text nests, read before it is parsed: parsing is iterative, but what walks the value afterwards (zod's
 * recursive schemas, JSON.stringify) recurses, and deep enough nesting overflows the stack there. Every JSON a client
 * sends is held to MAX_JSON_DEPTH: request bodies (api/middleware/json-body.ts) and uploaded OGraf manifests.
 */

/** Far deeper than any scene (groups nest 8 deep) or graphic manifest; deep enough nesting would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text, strings skipped (a scan, no parse). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Pictures of the asset library in a graphic's data (an `asset` input: `/assets/{sha256}.png`). The page loads them
 * with its output token (asset-urls.ts), which a graphic must never see, so a graphic is given each one as a `data:`
 * URL instead: it draws it with `<img>`, CSS or `fetch` like any URL, and no request leaves its sandbox for it. Other
 * values, other URLs included, are passed as they are.
 */
import { assetRef, type PaintedError } from '@onair/protocol';
import type { GraphicData } from './graphic-data.js';

/** Data URLs kept for the page's graphics; a ticker of changing pictures must not grow the page without bound. */
const KEPT = 64;

export interface GraphicAssets {
  /**
   * `data` with every library asset in it as a `data:` URL; null while one of them is still loading (`onReady` runs
   * once it has). An asset that cannot be loaded is reported and left as its path.
   */
  inline(data: GraphicData, onReady: () => void): GraphicData | null;
}

export interface GraphicAssetsDeps {
  /** The asset at `path` as a `data:` URL (loaded with the page's token). */
  load(path: string): Promise<string>;
  report(error: PaintedError): void;
}

export function createGraphicAssets(deps: GraphicAssetsDeps): GraphicAssets {
  const known = new Map<string, string | null>();
  const loading = new Map<string, Set<() => void>>();

  function start(path: string, onReady: () => void): void {
    const waiting = loading.get(path);
    if (waiting) {
      waiting.add(onReady);
      return;
    }
    loading.set(path, new Set([onReady]));
    const settle = (url: string | null) => {
      if (known.size >= KEPT) known.delete(known.keys().next().value as string);
      known.set(path, url);
      const ready = loading.get(path) ?? new Set<() => void>();
      loading.delete(path);
      for (const fn of ready) fn();
    };
    deps.load(path).then(settle, () => {
      deps.report({ message: 'graphic asset failed to load', url: path });
      settle(null);
    });
  }

  function walk(value: unknown, onReady: () => void, missing: { any: boolean }): unknown {
    if (typeof value === 'string') {
      const ref = assetRef(value);
      if (!ref) return value;
      const url = known.get(ref.path);
      if (url === undefined) {
        missing.any = true;
        start(ref.path, onReady);
        return value;
      }
      return url ?? value;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out: GraphicData = {};
    for (const [key, v] of Object.entries(value)) out[key] = walk(v, onReady, missing);
    return out;
  }

  return {
    inline(data, onReady) {
      const missing = { any: false };
      const out = walk(data, onReady, missing) as GraphicData;
      return missing.any ? null : out;
    },
  };
}

/** Loads an asset as a `data:` URL with the page's own `fetch`. */
export async function fetchDataUrl(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Images and fonts the page could not load, told to whoever reports them (paint-report.ts, docs/outputs.md). An
 * image is drawn as a CSS background, which says nothing when it fails, so each URL an element draws is also loaded
 * once by an Image object, which does (the browser fetches it once for both). A URL that failed is tried again when
 * it is drawn after FAILED_RETRY_MS. URLs are reported without the output token.
 */
import { withoutToken, type PaintedError } from '@onair/protocol';

const FAILED_RETRY_MS = 30_000;
/** URLs remembered at most: a ticker of changing images must not grow the page without bound. */
const KEPT = 500;

type Sink = (error: PaintedError) => void;

let sink: Sink | null = null;
const images = new Map<string, { failedAt: number | null }>();

/** Where failures go; none until set (sketch mode sets none: nothing is reported). */
export function reportLoadErrorsTo(next: Sink | null): void {
  sink = next;
}

/** Any other failure of what the page draws (an OGraf graphic's, graphic-dom.ts): reported as it is. */
export function reportFailure(error: PaintedError): void {
  sink?.(error);
}

/** An element draws this image URL now. */
export function watchImage(url: string): void {
  if (!sink) return;
  const known = images.get(url);
  if (known && (known.failedAt === null || Date.now() - known.failedAt < FAILED_RETRY_MS)) return;
  if (images.size >= KEPT && !known) images.delete(images.keys().next().value as string);
  const entry = { failedAt: null as number | null };
  images.set(url, entry);
  const probe = new Image();
  probe.onerror = () => {
    entry.failedAt = Date.now();
    sink?.({ message: 'image failed to load', url: withoutToken(url) });
  };
  probe.src = url;
}

/** A font face the page registered, loaded from `url`: its failure is reported once it is tried. */
export function watchFont(face: FontFace, url: string): void {
  face.loaded.catch(() => sink?.({ message: `font ${face.family} failed to load`, url: withoutToken(url) }));
}

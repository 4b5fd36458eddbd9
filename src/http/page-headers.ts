/**
 * Security headers of the HTML pages, one set per kind of page. Every page loads its scripts and styles
 * from this origin only (no inline code, except the renderer shell's loader and style, allowed by hash),
 * sends no Referer (the renderer's and the setup page's URLs carry tokens), and is never sniffed as
 * another type.
 */

/** CSP sources (`'sha256-…'`) of a page's inline `<script>` and `<style>` elements. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

const COMMON = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** `data:` images: every page declares `<link rel="icon" href="data:,">` so browsers ask for no favicon. */
const BASE_POLICY = ["default-src 'self'", "img-src 'self' data:", "object-src 'none'", "base-uri 'none'"];

/** The landing page, the API reference, setup and invitation pages: nothing may frame them. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Security-Policy': [...BASE_POLICY, "form-action 'self'", "frame-ancestors 'none'"].join('; '),
};

/**
 * The output page (/render/:channelId). The dashboard frames it from this origin; image layers draw
 * pictures from any http(s) URL an operator sets; its WebSocket goes to this origin (`'self'` covers ws:
 * and wss: from Chromium 71 on; the renderer is built for Chromium 103 and later anyway).
 */
export function rendererPageHeaders(inline: InlineHashes): Record<string, string> {
  const policy = [
    "default-src 'self'",
    `script-src ${["'self'", ...inline.scripts].join(' ')}`,
    `style-src ${["'self'", ...inline.styles].join(' ')}`,
    "img-src 'self' data: https: http:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ];
  return { ...COMMON, 'Content-Security-Policy': policy.join('; ') };
}

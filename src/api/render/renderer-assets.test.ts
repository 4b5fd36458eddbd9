import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineHashes } from './renderer-assets.js';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineHashes', () => {
  it('hashes each inline script and style, exactly as written, and skips scripts loaded from a file', () => {
    const loader = '(function () {\n  retry();\n})();';
    const html = `<head><style>html { margin: 0 }</style><script>${loader}</script><script src="/render/assets/r.js" defer></script></head>`;
    expect(inlineHashes(html)).toEqual({ scripts: [sha(loader)], styles: [sha('html { margin: 0 }')] });
  });

  it('is empty for a page without inline code', () => {
    expect(inlineHashes('<script src="/a.js"></script><link rel="stylesheet" href="/a.css">')).toEqual({
      scripts: [],
      styles: [],
    });
  });
});

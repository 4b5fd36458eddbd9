/** The "PREVIEW" mark on the preview bus (never on program, never with `&clean=1`), above every layer. */
import { setStyles } from './dom-writer.js';

export function createPreviewBadge(doc: Document): HTMLElement {
  const badge = doc.createElement('div');
  badge.textContent = 'PREVIEW';
  badge.dataset.badge = 'preview';
  setStyles(badge, {
    position: 'absolute',
    left: '24px',
    top: '24px',
    padding: '6px 14px',
    'z-index': '1000',
    background: '#d01818',
    color: '#ffffff',
    'font-family': '"Inter", sans-serif',
    'font-weight': '700',
    'font-size': '28px',
    'letter-spacing': '2px',
    'border-radius': '6px',
  });
  return badge;
}

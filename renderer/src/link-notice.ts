/**
 * The notice an output page shows, in an ordinary browser only, when the server refuses its link: a page in OBS
 * or CasparCG never creates it (link-check.ts), since whatever it draws may be on air.
 */
import { setStyles } from './dom-writer.js';

export interface LinkNotice {
  show(): void;
  hide(): void;
}

const TITLE = 'This output link is not valid any more';
const DETAIL =
  "The channel's output token was rotated, or the channel was deleted. Copy the output URL again from the " +
  "channel's settings in the onair dashboard, and use the new one here and in every browser source.";
const HOSTS = 'In OBS and CasparCG this page shows nothing instead of this notice.';

export function createLinkNotice(doc: Document): LinkNotice {
  let box: HTMLElement | null = null;
  return {
    show() {
      if (box) return;
      box = build(doc);
      doc.body.appendChild(box);
    },
    hide() {
      box?.remove();
      box = null;
    },
  };
}

function build(doc: Document): HTMLElement {
  const box = doc.createElement('div');
  box.setAttribute('role', 'alert');
  box.dataset.notice = 'link';
  setStyles(box, {
    position: 'fixed',
    left: '50%',
    top: '50%',
    transform: 'translate(-50%, -50%)',
    'max-width': 'min(36rem, calc(100vw - 2rem))',
    'box-sizing': 'border-box',
    padding: '1rem 1.25rem',
    'z-index': '2000',
    background: '#1c1f26',
    color: '#ffffff',
    'font-family': '"Inter", system-ui, sans-serif',
    'font-size': '16px',
    'line-height': '1.45',
    'border-radius': '8px',
    'box-shadow': '0 4px 16px rgba(0, 0, 0, 0.35)',
  });
  const title = doc.createElement('strong');
  title.textContent = TITLE;
  setStyles(title, { display: 'block', 'font-size': '18px', 'margin-bottom': '0.5rem' });
  const detail = doc.createElement('p');
  detail.textContent = DETAIL;
  const hosts = doc.createElement('p');
  hosts.textContent = HOSTS;
  setStyles(detail, { margin: '0 0 0.5rem' });
  setStyles(hosts, { margin: '0', opacity: '0.75', 'font-size': '14px' });
  box.append(title, detail, hosts);
  return box;
}

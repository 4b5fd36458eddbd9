/**
 * Rewrites an uploaded SVG so that nothing in it can run or reach out: only drawing elements are kept (an allowlist;
 * anything else, `<script>` and `<foreignObject>` first, goes with its content), `on*` attributes are dropped, links
 * may point only inside the file (`#id`; an `<image>` also a `data:` image), CSS may not import or load anything but
 * `url(#id)`, and comments, processing instructions and CDATA wrappers go. A file that is not well-formed XML, or has
 * a DOCTYPE (entities), is refused. The output is rebuilt from parsed tokens, every value re-escaped, so what the
 * browser parses is what was checked. The hard guarantee is elsewhere (the CSP sandbox the file is served with); this
 * is the second wall, and what keeps the file harmless if it is ever served some other way.
 */

export class SvgRefused extends Error {}

const DRAWING = [
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline',
  'polygon', 'text', 'tspan', 'textPath', 'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask',
  'marker', 'image', 'style', 'switch', 'view', 'animate', 'animateTransform', 'animateMotion', 'mpath', 'set',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB',
  'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
]; // prettier-ignore
const ALLOWED_ELEMENTS = new Set(DRAWING);
/** Namespaced attributes that are kept; every other `prefix:name` goes. */
const NAMESPACED = new Set(['xlink:href', 'xml:space', 'xmlns:xlink']);
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

interface Tag {
  name: string;
  attrs: [string, string][];
  selfClosing: boolean;
}

/** The sanitised SVG text; throws SvgRefused when the file cannot be read as SVG. */
export function sanitiseSvg(source: string): string {
  const text = source.replace(/^\uFEFF/, '');
  const w = new Rewrite();
  let at = 0;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    w.text(text.slice(at, lt === -1 ? text.length : lt));
    if (lt === -1) break;
    at = lt;
    if (text.startsWith('<!--', at)) at = after(text, '-->', at);
    else if (text.startsWith('<?', at)) at = after(text, '?>', at);
    else if (text.startsWith('<![CDATA[', at)) {
      const end = after(text, ']]>', at);
      w.text(escapeText(text.slice(at + 9, end - 3)));
      at = end;
    } else if (text.startsWith('<!', at)) throw new SvgRefused('a DOCTYPE or declaration is not allowed');
    else if (text.startsWith('</', at)) {
      const m = /^<\/([^\s>]+)\s*>/.exec(text.slice(at, at + 200));
      if (!m) throw new SvgRefused('the SVG is not well-formed (bad end tag)');
      w.end(m[1]!);
      at += m[0].length;
    } else {
      const [tag, end] = readTag(text, at);
      w.start(tag);
      at = end;
    }
  }
  return w.result();
}

/** The output as the tokens come: what is kept, written again; a dropped element skipped with all it holds. */
class Rewrite {
  private readonly out: string[] = [];
  private readonly open: string[] = [];
  /** > 0 while inside a dropped element. */
  private skipping = 0;
  private rootSeen = false;

  text(chunk: string): void {
    if (!chunk) return;
    if (this.open.length === 0) {
      if (chunk.trim()) throw new SvgRefused('text outside the <svg> element');
      return;
    }
    if (this.skipping === 0) this.out.push(textOf(chunk, this.open.at(-1)!));
  }

  end(name: string): void {
    if (this.open.pop() !== name) throw new SvgRefused('the SVG is not well-formed (mismatched end tag)');
    if (this.skipping > 0) this.skipping--;
    else this.out.push(`</${name}>`);
  }

  start(tag: Tag): void {
    if (!this.rootSeen && tag.name !== 'svg') throw new SvgRefused('the first element is not <svg>');
    if (this.rootSeen && this.open.length === 0) throw new SvgRefused('more than one root element');
    const isRoot = !this.rootSeen;
    this.rootSeen = true;
    if (!tag.selfClosing) this.open.push(tag.name);
    if (this.skipping > 0 || !keepElement(tag)) {
      if (!tag.selfClosing) this.skipping++;
      return;
    }
    this.out.push(writeTag(tag, isRoot));
  }

  result(): string {
    if (!this.rootSeen || this.open.length > 0) throw new SvgRefused('the SVG is not well-formed (unclosed elements)');
    return this.out.join('');
  }
}

function after(text: string, end: string, from: number): number {
  const i = text.indexOf(end, from);
  if (i === -1) throw new SvgRefused('the SVG is not well-formed (unterminated markup)');
  return i + end.length;
}

function readTag(text: string, from: number): [Tag, number] {
  const head = /^<([^\s/>]+)/.exec(text.slice(from, from + 200));
  if (!head || !NAME.test(head[1]!)) throw new SvgRefused('the SVG is not well-formed (bad element name)');
  const attrs: [string, string][] = [];
  const re = /\s*(?:([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')|(\/?>))/y;
  re.lastIndex = from + head[0].length;
  for (;;) {
    const m = re.exec(text);
    if (!m) throw new SvgRefused('the SVG is not well-formed (bad attribute)');
    if (m[4]) return [{ name: head[1]!, attrs, selfClosing: m[4] === '/>' }, re.lastIndex];
    if (!NAME.test(m[1]!)) throw new SvgRefused('the SVG is not well-formed (bad attribute name)');
    attrs.push([m[1]!, decodeEntities(m[2] ?? m[3] ?? '')]);
  }
}

function keepElement(tag: Tag): boolean {
  if (!ALLOWED_ELEMENTS.has(tag.name)) return false;
  if (tag.name === 'set' || tag.name.startsWith('animate')) {
    // An animation that sets a link or a handler would bring back what the attribute rules removed.
    const target = tag.attrs.find(([n]) => n === 'attributeName')?.[1] ?? '';
    if (/href|^on|^style$/i.test(target.trim())) return false;
  }
  return true;
}

function writeTag(tag: Tag, isRoot: boolean): string {
  const attrs = tag.attrs.filter(([name, value]) => keepAttribute(tag.name, name, value));
  if (isRoot && !attrs.some(([n]) => n === 'xmlns')) attrs.unshift(['xmlns', 'http://www.w3.org/2000/svg']);
  const written = attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('');
  return `<${tag.name}${written}${tag.selfClosing ? '/>' : '>'}`;
}

function keepAttribute(element: string, name: string, value: string): boolean {
  const lower = name.toLowerCase();
  if (lower.startsWith('on')) return false;
  if (name.includes(':') && !NAMESPACED.has(name)) return false;
  if (lower === 'xmlns') return value === 'http://www.w3.org/2000/svg';
  if (lower === 'xmlns:xlink') return value === 'http://www.w3.org/1999/xlink';
  if (lower === 'href' || lower === 'xlink:href') {
    const v = value.trim();
    return v.startsWith('#') || (element === 'image' && DATA_IMAGE.test(v));
  }
  // Browsers ignore white space and control characters inside a scheme.
  // eslint-disable-next-line no-control-regex
  if (/^(?:from|to|values|by)$/.test(lower) && /script:/i.test(value.replace(/[\s\0-\x1f]/g, ''))) return false;
  return safeCss(value);
}

/** CSS (or an attribute value, which may hold `url(…)`) that loads nothing outside the file. */
function safeCss(css: string): boolean {
  const flat = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\\/g, '');
  if (/@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding/i.test(flat)) return false;
  for (const m of flat.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi))
    if (!m[2]!.trim().startsWith('#')) return false;
  // A `url(` the pattern above could not read is refused rather than guessed at.
  return (flat.match(/url\s*\(/gi)?.length ?? 0) === [...flat.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi)].length;
}

/** Text content; inside <style>, CSS that would load something is dropped. */
function textOf(escaped: string, element: string): string {
  if (element !== 'style') return escaped;
  return safeCss(decodeEntities(escaped)) ? escaped : '';
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') {
      const named = NAMED[ref.toLowerCase()];
      if (named === undefined) throw new SvgRefused(`unknown entity ${whole}`);
      return named;
    }
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

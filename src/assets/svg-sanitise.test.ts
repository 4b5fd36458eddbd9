import { describe, expect, it } from 'vitest';
import { sanitiseSvg, SvgRefused } from './svg-sanitise.js';

const svg = (inner: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"${attrs}>${inner}</svg>`;

describe('sanitiseSvg', () => {
  it('keeps drawing as it was', () => {
    const drawing = svg('<rect x="0" y="0" width="10" height="10" fill="#ff0000"/><g><circle r="2"/></g>');
    expect(sanitiseSvg(drawing)).toBe(drawing);
  });

  it.each([
    ['a script element', svg('<script>window.pwned=1</script><rect/>')],
    ['a script in CDATA', svg('<script><![CDATA[window.pwned=1]]></script>')],
    ['an event handler', svg('<rect onload="window.pwned=1"/>', ' onload="pwned=1"')],
    ['an upper-case handler', svg('<rect ONCLICK="pwned=1"/>')],
    ['a javascript: link', svg('<a href="javascript:pwned=1"><rect/></a>')],
    ['an entity-encoded javascript: link', svg('<use href="&#106;avascript:pwned=1"/>')],
    [
      'foreignObject',
      svg('<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:1"/></foreignObject>'),
    ],
    ['an external image', svg('<image href="https://evil.example/x.png"/>')],
    ['an external use', svg('<use xlink:href="https://evil.example/s.svg#x"/>')],
    ['a set of href', svg('<a><set attributeName="href" to="javascript:pwned=1"/></a>')],
    ['an animate to javascript:', svg('<animate attributeName="href" values="javascript:pwned=1"/>')],
    ['an external url() in an attribute', svg('<rect fill="url(https://evil.example/p.svg#g)"/>')],
    ['an @import in a style element', svg('<style>@import url(https://evil.example/x.css);</style>')],
    ['a url in a style attribute', svg('<rect style="fill: url( \'//evil.example/a\' )"/>')],
    ['an iframe', svg('<iframe src="https://evil.example"/>')],
  ])('removes %s', (_, input) => {
    const out = sanitiseSvg(input);
    expect(out).not.toMatch(/script|pwned|evil\.example|foreignObject|iframe|onload|onclick/i);
    expect(out.startsWith('<svg')).toBe(true);
  });

  it('keeps internal references, data: images and safe CSS', () => {
    const input = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>' +
        '<rect fill="url(#g)" style="opacity: 0.5"/><use href="#g"/>' +
        '<image href="data:image/png;base64,iVBORw0KGgo="/><style>rect { fill: url(#g); }</style>',
    );
    expect(sanitiseSvg(input)).toBe(input);
  });

  it('re-escapes values, so what was checked is what a browser reads', () => {
    expect(sanitiseSvg(svg('<text x="&quot;&lt;">a &amp; b</text>'))).toBe(
      svg('<text x="&quot;&lt;">a &amp; b</text>'),
    );
  });

  it('adds the SVG namespace to a root without one (an image needs it)', () => {
    expect(sanitiseSvg('<svg width="1"><rect/></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1"><rect/></svg>',
    );
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>'],
    ['an unknown entity', svg('<text>&x;</text>').replace('<text>&x;', '<text style="&x;">')],
    ['unclosed elements', '<svg><g>'],
    ['a mismatched end tag', '<svg><g></svg></g>'],
    ['another root element', '<html><svg/></html>'],
    ['unquoted attributes', '<svg width=10></svg>'],
    ['two roots', '<svg></svg><svg></svg>'],
  ])('refuses %s', (_, input) => {
    expect(() => sanitiseSvg(input)).toThrow(SvgRefused);
  });
});

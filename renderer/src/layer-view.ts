/**
 * One scene layer as a DOM element. Everything fixed by the definition is set once; only values
 * that come from inputs are rewritten, through a DomWriter that skips unchanged ones.
 */
import { interpolate } from '../../src/protocol/index.js';
import type { ImageLayer, Layer, RectLayer, TextLayer } from '../../src/protocol/index.js';
import { createDomWriter, cssUrl, setStyles, type DomWriter } from './dom-writer.js';
import type { SceneValues } from './scene-values.js';

export interface LayerView {
  readonly el: HTMLElement;
  update(values: SceneValues): void;
}

type Painter = (values: SceneValues, write: DomWriter) => void;

export function createLayerView(doc: Document, layer: Layer): LayerView {
  const el = doc.createElement('div');
  setStyles(el, {
    position: 'absolute',
    left: '0',
    top: '0',
    // Position by transform so moving a layer never lays out anything else.
    transform: `translate(${layer.x}px, ${layer.y}px)`,
    width: `${layer.width}px`,
    height: `${layer.height}px`,
    overflow: 'hidden',
    // The box's size never depends on its content: text changes re-lay out this box only.
    contain: 'strict',
  });
  const paint = painterFor(el, layer);
  const write = createDomWriter(el);
  return {
    el,
    update(values) {
      const shown = layer.visibleIf === undefined || values.isTrue(layer.visibleIf);
      write.style('visibility', shown ? 'visible' : 'hidden');
      paint(values, write);
    },
  };
}

function painterFor(el: HTMLElement, layer: Layer): Painter {
  switch (layer.type) {
    case 'text':
      return textPainter(el, layer);
    case 'rect':
      return rectPainter(el, layer);
    case 'image':
      return imagePainter(el, layer);
  }
}

function fill(template: string | undefined, values: SceneValues): string {
  return template === undefined ? '' : interpolate(template, (name) => values.text(name));
}

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

function textPainter(el: HTMLElement, layer: TextLayer): Painter {
  const align = layer.align ?? 'left';
  setStyles(el, {
    display: 'flex',
    'align-items': 'center',
    'justify-content': JUSTIFY[align],
    'text-align': align,
    'white-space': 'pre',
    'font-size': `${layer.fontSize}px`,
    'font-family': layer.fontFamily,
    'font-weight': layer.fontWeight === undefined ? undefined : String(layer.fontWeight),
  });
  return (values, write) => {
    write.text(fill(layer.text, values));
    write.style('color', fill(layer.color, values));
    write.style('background', fill(layer.background, values));
  };
}

function rectPainter(el: HTMLElement, layer: RectLayer): Painter {
  setStyles(el, {
    'border-radius': layer.radius === undefined ? undefined : `${layer.radius}px`,
    opacity: layer.opacity === undefined ? undefined : String(layer.opacity),
  });
  return (values, write) => write.style('background-color', fill(layer.color, values));
}

/** A background image rather than <img>: a missing or broken source paints nothing, never an icon. */
function imagePainter(el: HTMLElement, layer: ImageLayer): Painter {
  const fit = layer.fit ?? 'contain';
  setStyles(el, {
    'background-size': fit === 'fill' ? '100% 100%' : fit,
    'background-position': 'center',
    'background-repeat': 'no-repeat',
  });
  return (values, write) => {
    const src = fill(layer.src, values).trim();
    write.style('background-image', src === '' ? 'none' : cssUrl(src));
  };
}

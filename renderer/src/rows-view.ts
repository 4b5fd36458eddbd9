/**
 * A rows element's painter: one row box per row of its list, `rowHeight` below the one before, each holding its
 * own views of the element's children, drawn with that row's values (SceneValues.row). Rows are built the first
 * time the list is that long and hidden, not removed, when it gets shorter: a table that changes by a row does not
 * rebuild the others.
 */
import type { InputDef, RowsElement, SceneElement } from '@onair/protocol';
import { createDomWriter, setStyles } from './dom-writer.js';
import { num } from './element-style.js';
import type { SceneValues } from './scene-values.js';
import type { FitQueue } from './text-box.js';

/** What a row needs of an element's view (element-view.ts, passed in so the two modules do not import each other). */
interface ChildView {
  readonly el: HTMLElement;
  readonly def: SceneElement;
  update(values: SceneValues, fits: FitQueue): void;
}

/** Builds a child's view (and its own children's), appending them all to `all`. */
type BuildView<V> = (def: SceneElement, inputs: Readonly<Record<string, InputDef>>, all: V[]) => V;

interface Row<V> {
  show(shown: boolean): void;
  views: V[];
}

export function rowsPainter<V extends ChildView>(
  el: HTMLElement,
  def: RowsElement,
  inputs: Readonly<Record<string, InputDef>>,
  build: BuildView<V>,
  link: (views: readonly V[]) => void,
): (values: SceneValues, fits: FitQueue) => void {
  const rows: Row<V>[] = [];

  function addRow(index: number): Row<V> {
    const box = el.ownerDocument.createElement('div');
    setStyles(box, {
      position: 'absolute',
      left: '0',
      top: `${num(index * def.rowHeight)}px`,
      width: '100%',
      height: '100%',
    });
    box.dataset.row = String(index);
    const views: V[] = [];
    for (const child of def.children) box.appendChild(build(child, inputs, views).el);
    link(views);
    el.appendChild(box);
    const write = createDomWriter(box);
    return { views, show: (shown) => write.style('display', shown ? 'block' : 'none') };
  }

  return (values, fits) => {
    const count = values.rowCount(def.list);
    while (rows.length < count) rows.push(addRow(rows.length));
    rows.forEach((row, i) => {
      row.show(i < count);
      if (i >= count) return;
      const rowValues = values.row(def.list, i);
      for (const view of row.views) view.update(rowValues, fits);
    });
  };
}

/**
 * The checks of list inputs, rows and crawl elements (docs/scenes.md, "Lists"): a list declares its columns, each
 * name once, and only a list has columns or maxRows; a rows or crawl element draws a list input, and the `{column}`
 * placeholders of its children (a crawl's text) name that list's columns (or, failing that, the scene's inputs).
 */
import type { CrawlElement, InputType, ListColumn, RowsElement } from '@onair/protocol';
import type { Path, Report } from './definition-checks.js';

export interface ListInputLike {
  type: InputType;
  columns?: ListColumn[];
  maxRows?: number;
}

/** False when the default cannot be checked (a list without columns). */
export function checkListShape(input: ListInputLike, path: Path, report: Report): boolean {
  if (input.type !== 'list') {
    if (input.columns !== undefined) report([...path, 'columns'], 'only a list input has columns');
    if (input.maxRows !== undefined) report([...path, 'maxRows'], 'only a list input has maxRows');
    return true;
  }
  if (input.columns === undefined) {
    report([...path, 'columns'], 'a list input declares its columns, e.g. [{"name": "team", "type": "text"}]');
    return false;
  }
  const names = input.columns.map((c) => c.name);
  names.forEach((name, k) => {
    if (names.indexOf(name) < k) report([...path, 'columns', k, 'name'], `duplicate column "${name}"`);
  });
  return true;
}

/**
 * The names a rows element's children (or a crawl's text) may use: the scene's inputs, with the list's columns over
 * them. Reports a `list` that is not a list input (then the children see the inputs only).
 */
export function rowScope(
  el: RowsElement | CrawlElement,
  at: Path,
  inputs: Map<string, InputType>,
  columns: Map<string, ListColumn[]>,
  report: Report,
  undeclared: (name: string) => string,
): Map<string, InputType> {
  const type = inputs.get(el.list);
  if (type === undefined) report([...at, 'list'], undeclared(el.list));
  else if (type !== 'list')
    report([...at, 'list'], `"${el.list}" is a ${type} input; a ${el.type} element draws a list input`);
  const scope = new Map(inputs);
  for (const column of columns.get(el.list) ?? []) scope.set(column.name, column.type);
  return scope;
}

/** The values a rows element draws each row with (scene-values.ts, rowCount and row). */
import { describe, expect, it } from 'vitest';
import type { ListRow } from '@onair/protocol';
import { createSceneValues, type ValueSources } from './scene-values.js';
import { sceneView } from './test-scenes.js';

const scene = sceneView('table', {
  inputs: [
    { name: 'title', type: 'text', label: 'Title', default: '' },
    { name: 'team', type: 'text', label: 'Team', default: '' },
    {
      name: 'standings',
      type: 'list',
      label: 'Standings',
      default: [],
      columns: [
        { name: 'team', type: 'text' },
        { name: 'pts', type: 'number' },
      ],
      maxRows: 3,
    },
  ],
});

const rows: ListRow[] = [{ team: 'Lions', pts: 42 }, { team: 'Tigers', pts: 7 }, { pts: 0 }, { team: 'Bears', pts: 1 }];

function sources(over: Partial<ValueSources> = {}): ValueSources {
  return {
    inputs: { title: 'League', team: 'Channel team', standings: rows },
    overrides: {},
    clocks: {},
    serverNow: 0,
    ...over,
  };
}

describe('list rows', () => {
  it('counts the rows drawn: at most maxRows, none for an unset list or anything but a list', () => {
    expect(createSceneValues(scene, sources()).rowCount('standings')).toBe(3);
    expect(createSceneValues(scene, sources({ inputs: {} })).rowCount('standings')).toBe(0);
    expect(createSceneValues(scene, sources()).rowCount('title')).toBe(0);
  });

  it("fills a row's {column} placeholders with its cells, a column it leaves out empty, inputs as before", () => {
    const values = createSceneValues(scene, sources());
    expect(values.row('standings', 0).fill('{team} {pts} · {title}')).toBe('Lions 42 · League');
    expect(values.row('standings', 1).fill('{team} {pts}')).toBe('Tigers 7');
    // A column hides an input of the same name, even in a row that leaves it out.
    expect(values.row('standings', 2).fill('[{team}] {pts}')).toBe('[] 0');
    expect(values.text('team')).toBe('Channel team');
  });

  it("compares a row's number cells in visibleWhen", () => {
    const values = createSceneValues(scene, sources());
    expect(values.row('standings', 0).meets({ input: 'pts', atLeast: 10 })).toBe(true);
    expect(values.row('standings', 1).meets({ input: 'pts', atLeast: 10 })).toBe(false);
  });

  it("draws an instance's own rows and a page override's before the channel's", () => {
    const own = [{ team: 'Own', pts: 1 }];
    const entry = { values: { standings: own } };
    expect(createSceneValues(scene, sources({ entry })).row('standings', 0).fill('{team}')).toBe('Own');
    const overrides = { standings: [{ team: 'Page' }] };
    expect(createSceneValues(scene, sources({ entry, overrides })).row('standings', 0).fill('{team}')).toBe('Page');
  });
});

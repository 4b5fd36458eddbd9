/**
 * Show preparation in the engine: instances with their own item values, update on air, and rundowns (items, focus,
 * cue, take, play next, stop, versions, limits). The schedule and undo have their own files.
 */
import { describe, expect, it } from 'vitest';
import { API_EVENT } from './engine.fixtures.js';
import { CH, entry, noSince, rundown, setup, states, USER_BY, view, withRundown } from './engine-show.fixtures.js';

describe('item values', () => {
  it('preview carries the cued instance’s values while program keeps its own; take moves them to air', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'A' } });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_lower', values: { name: 'B' } });
    expect(h.engine.state(CH).program.map(({ since: _s, ...e }) => e)).toEqual([entry('sc_lower', 2, { name: 'A' })]);
    expect(h.engine.state(CH).preview).toEqual([entry('sc_lower', 2, { name: 'B' })]);
    expect(h.frames.at(-1)!.preview).toEqual([entry('sc_lower', 2, { name: 'B' })]);
    expect(h.frames.at(-1)).not.toHaveProperty('program');

    await h.run(CH, { kind: 'take' });
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_lower', 2, { name: 'B' })]);
    expect(h.engine.state(CH).preview).toEqual([]);
    expect(h.frames.at(-1)!.program).toMatchObject([{ sceneId: 'sc_lower', values: { name: 'B' } }]);
  });

  it('refuses a channel input among an instance’s values (invalid_request) and an unknown one, changing nothing', async () => {
    const h = setup();
    const channelInput = await h.refusal(CH, { kind: 'cue', sceneId: 'sc_lower', values: { score: 3 } });
    expect(channelInput.code).toBe('invalid_request');
    expect(channelInput.errors).toEqual([{ path: 'values.score', message: 'a channel input' }]);
    const unknown = await h.refusal(CH, { kind: 'cut', sceneId: 'sc_lower', values: { nmae: 'A' } });
    expect(unknown).toMatchObject({ code: 'unknown_input', extra: { closest: 'name' } });
    expect(view(h)).toMatchObject({ program: [], preview: [], inputs: { score: 0 } });
    expect(h.frames).toEqual([]);
  });
});

describe('update on air', () => {
  it('changes the program instance’s values in place, with an event naming who did it', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'A', title: 'Coach' } });
    const since = h.engine.state(CH).program[0]!.since;
    h.events.length = 0;
    const { frame } = await h.run(CH, { kind: 'update', values: { name: 'C', title: null } }, USER_BY);
    expect(h.engine.state(CH).program).toEqual([{ ...entry('sc_lower', 2, { name: 'C' }), since }]);
    expect(h.frames.at(-1)).toMatchObject({ frame, program: [{ values: { name: 'C' }, since }] });
    expect(h.frames.at(-1)).not.toHaveProperty('cutLayers');
    expect(h.events.map((e) => [e.type, e.data])).toEqual([
      [
        'channel.updated_on_air',
        {
          sceneId: 'sc_lower',
          layer: 2,
          itemId: null,
          values: { name: 'C', title: null },
          previous: { name: 'A', title: 'Coach' },
          frame,
          ...USER_BY,
        },
      ],
      ['channel.trigger_fired', { sceneId: 'sc_lower', trigger: 'named', ...USER_BY }],
    ]);
  });

  it('refuses not_found with nothing on air', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_lower' });
    expect((await h.refusal(CH, { kind: 'update', values: { name: 'C' } })).code).toBe('not_found');
  });
});

describe('rundowns', () => {
  it('are created, filled, duplicated into, reordered and pruned, each list change a new version', async () => {
    const h = setup();
    const created = await withRundown(h);
    expect(created.rundown).toMatchObject({ id: 'rd_1', channelId: CH, items: [], focus: null, version: 1 });
    expect(rundown(h)).toMatchObject({ version: 4, focus: 'it_1' });
    expect(rundown(h).items[0]).toEqual({
      id: 'it_1',
      sceneId: 'sc_lower',
      values: { name: 'A' },
      label: '',
      notes: '',
      durationMs: null,
      state: 'ready',
      version: 1,
    });

    const copy = await h.run(CH, { kind: 'item.duplicate', rundownId: 'rd_1', itemId: 'it_2', newItemId: 'it_2c' });
    expect(copy.item).toMatchObject({ id: 'it_2c', sceneId: 'sc_lower', values: { name: 'B' }, version: 1 });
    const moved = await h.run(CH, {
      kind: 'item.edit',
      rundownId: 'rd_1',
      itemId: 'it_3',
      version: 1,
      fields: {},
      position: 0,
    });
    expect(moved.rundown!.items.map((i) => i.id)).toEqual(['it_3', 'it_1', 'it_2', 'it_2c']);
    expect(moved.item!.version).toBe(2);
    await h.run(CH, { kind: 'item.delete', rundownId: 'rd_1', itemId: 'it_2c' });
    expect(rundown(h)).toMatchObject({ version: 7, focus: 'it_1' });
    expect(rundown(h).items.map((i) => i.id)).toEqual(['it_3', 'it_1', 'it_2']);
    expect(h.frames.at(-1)!.rundowns).toEqual([rundown(h)]);

    await h.run(CH, { kind: 'rundown.delete', rundownId: 'rd_1' });
    expect(h.engine.show(CH).rundowns).toEqual([]);
    expect(h.frames.at(-1)!.removedRundowns).toEqual(['rd_1']);
  });

  it('moves the shared focus next and previous, stopping at either end', async () => {
    const h = setup();
    await withRundown(h);
    const focus = async (move: 'next' | 'previous') => {
      await h.run(CH, { kind: 'rundown.focus', rundownId: 'rd_1', move });
      return rundown(h).focus;
    };
    expect([await focus('next'), await focus('next'), await focus('next')]).toEqual(['it_2', 'it_3', 'it_3']);
    expect([await focus('previous'), await focus('previous'), await focus('previous')]).toEqual([
      'it_2',
      'it_1',
      'it_1',
    ]);
  });

  it('cues the focused item with its values (preview), takes it (program), and a take replacing it makes it done', async () => {
    const h = setup();
    await withRundown(h);
    h.events.length = 0;
    await h.run(CH, { kind: 'rundown.cue', rundownId: 'rd_1' });
    expect(h.engine.state(CH).preview).toEqual([entry('sc_lower', 2, { name: 'A' }, 'it_1')]);
    expect(states(h)).toEqual({ it_1: 'preview', it_2: 'ready', it_3: 'ready' });
    expect(h.events.map((e) => [e.type, e.data])).toEqual([
      ['channel.scene_loaded', { sceneId: 'sc_lower', bus: 'preview', layer: 2, itemId: 'it_1', ...API_EVENT }],
      ['rundown.item_cued', { rundownId: 'rd_1', itemId: 'it_1', sceneId: 'sc_lower', layer: 2, ...API_EVENT }],
    ]);

    await h.run(CH, { kind: 'take' });
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_lower', 2, { name: 'A' }, 'it_1')]);
    expect(states(h)).toEqual({ it_1: 'program', it_2: 'ready', it_3: 'ready' });
    expect(h.events.at(-1)).toMatchObject({ type: 'rundown.item_taken', data: { itemId: 'it_1', ...API_EVENT } });

    await h.run(CH, { kind: 'rundown.cue', rundownId: 'rd_1', itemId: 'it_2' });
    expect(rundown(h).focus).toBe('it_2');
    await h.run(CH, { kind: 'take' });
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_lower', 2, { name: 'B' }, 'it_2')]);
    expect(states(h)).toEqual({ it_1: 'done', it_2: 'program', it_3: 'ready' });
  });

  it('play next cues and takes the next item in one tick and moves the focus on; stop takes it off air', async () => {
    const h = setup();
    await withRundown(h);
    const frames = h.frames.length;
    const played = await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(played.item).toMatchObject({ id: 'it_1', state: 'program' });
    expect(h.frames.length).toBe(frames + 1);
    expect(h.frames.at(-1)).toMatchObject({ frame: played.frame, program: [{ itemId: 'it_1' }], preview: [] });
    expect(rundown(h).focus).toBe('it_2');

    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_lower', 2, { name: 'B' }, 'it_2')]);
    expect(states(h)).toEqual({ it_1: 'done', it_2: 'program', it_3: 'ready' });
    expect(rundown(h).focus).toBe('it_3');

    h.events.length = 0;
    await h.run(CH, { kind: 'rundown.stop', rundownId: 'rd_1', itemId: 'it_2' });
    expect(h.engine.state(CH).program).toEqual([]);
    expect(states(h)).toMatchObject({ it_2: 'done' });
    expect(h.events.map((e) => [e.type, e.data.itemId])).toEqual([
      ['channel.cleared', 'it_2'],
      ['rundown.item_stopped', 'it_2'],
    ]);
  });

  it('editing a prepared item never reaches program', async () => {
    const h = setup();
    await withRundown(h);
    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    const onAir = view(h);
    const frames = h.frames.length;
    const edit = { kind: 'item.edit', rundownId: 'rd_1', itemId: 'it_1', version: 1 } as const;
    await h.run(CH, { ...edit, fields: { values: { name: 'Z' } } });
    expect(view(h)).toEqual(onAir);
    expect(h.frames.slice(frames).every((f) => f.program === undefined && f.preview === undefined)).toBe(true);
    expect(rundown(h).items[0]).toMatchObject({ values: { name: 'Z' }, version: 2, state: 'program' });
  });

  it('refuses an edit naming a stale version with version_conflict and the current item, changing nothing', async () => {
    const h = setup();
    await withRundown(h);
    const edit = { kind: 'item.edit', rundownId: 'rd_1', itemId: 'it_1', version: 1 } as const;
    await h.run(CH, { ...edit, fields: { label: 'first operator' } });
    const current = rundown(h).items[0]!;
    const err = await h.refusal(CH, { ...edit, fields: { label: 'second operator' } });
    expect(err.code).toBe('version_conflict');
    expect(err.extra).toMatchObject({ current, version: 2 });
    expect(current).toMatchObject({ label: 'first operator', version: 2 });
    expect(rundown(h).items[0]).toEqual(current);
  });

  it('refuses to cue or play an item whose scene was deleted (conflict)', async () => {
    const h = setup();
    await withRundown(h);
    h.engine.removeScene(CH, 'sc_board');
    await h.advance();
    const err = await h.refusal(CH, { kind: 'rundown.cue', rundownId: 'rd_1', itemId: 'it_3' });
    expect(err).toMatchObject({ code: 'conflict', extra: { itemId: 'it_3', sceneId: 'sc_board' } });
    await h.run(CH, { kind: 'rundown.focus', rundownId: 'rd_1', itemId: 'it_3' });
    const played = await h.refusal(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(played).toMatchObject({ code: 'conflict', extra: { itemId: 'it_3', sceneId: 'sc_board' } });
    expect(view(h)).toMatchObject({ program: [], preview: [] });
  });

  it('keeps to the limits: rundowns per channel, items per rundown, scheduled ops, history depth', async () => {
    const h = setup({ limits: { rundownsPerChannel: 1, itemsPerRundown: 2, scheduledPerChannel: 1, historyDepth: 3 } });
    await h.run(CH, { kind: 'rundown.create', rundownId: 'rd_1', name: 'One' });
    const limited = (err: { code: string; extra?: unknown }, limit: number) =>
      expect(err).toMatchObject({ code: 'limit_reached', extra: { limit } });
    limited(await h.refusal(CH, { kind: 'rundown.create', rundownId: 'rd_2', name: 'Two' }), 1);
    const add = (itemId: string) =>
      ({ kind: 'item.add', rundownId: 'rd_1', itemId, fields: { sceneId: 'sc_bug' } }) as const;
    await h.run(CH, add('it_1'));
    await h.run(CH, add('it_2'));
    limited(await h.refusal(CH, add('it_3')), 2);
    limited(await h.refusal(CH, { kind: 'item.duplicate', rundownId: 'rd_1', itemId: 'it_1', newItemId: 'it_4' }), 2);
    expect(rundown(h).items).toHaveLength(2);

    const at = (ms: number) => new Date(h.time.now() + ms).toISOString();
    await h.run(CH, { kind: 'schedule.add', scheduleId: 'sch_1', at: at(60_000), action: { kind: 'clear' } });
    const second = { kind: 'schedule.add', scheduleId: 'sch_2', at: at(60_000), action: { kind: 'clear' } } as const;
    limited(await h.refusal(CH, second), 1);

    for (const sceneId of ['sc_board', 'sc_lower', 'sc_bug', 'sc_board', 'sc_lower']) {
      await h.run(CH, { kind: 'cut', sceneId });
    }
    expect(h.committer.ticks.at(-1)!.changes[0]!.live.history).toHaveLength(3);
  });
});

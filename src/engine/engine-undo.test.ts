/**
 * Undo and redo in the engine: what operators (keys, users, the schedule) did to the buses and values is put back
 * exactly; what hooks set is not recorded.
 */
import { describe, expect, it } from 'vitest';
import { API_BY } from './engine.fixtures.js';
import {
  CH,
  entry,
  HOOK_BY,
  noSince,
  patch,
  rundown,
  setup,
  states,
  USER_BY,
  view,
  withRundown,
} from './engine-show.fixtures.js';

describe('undo and redo', () => {
  it('undo of a take puts the buses back as they were; redo takes again', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'A' } });
    await h.run(CH, patch('score', 3));
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const before = view(h);
    await h.run(CH, { kind: 'take' });
    const after = view(h);
    expect(noSince(after.program).map((e) => e.sceneId)).toEqual(['sc_board', 'sc_lower']);

    h.events.length = 0;
    const { frame } = await h.run(CH, { kind: 'undo' }, USER_BY);
    expect(view(h)).toEqual(before);
    const undone = h.events.find((e) => e.type === 'channel.undone')!;
    expect(undone.data).toMatchObject({ kind: 'take', frame, ...USER_BY });

    await h.run(CH, { kind: 'redo' });
    expect({ ...view(h), program: noSince(view(h).program) }).toEqual({ ...after, program: noSince(after.program) });
  });

  it('undo of a clear-all puts every layer back on air with its own values, as going to air again', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'A', title: 'Coach' } });
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'cue', sceneId: 'sc_bug' });
    const before = view(h);
    await h.run(CH, { kind: 'clear' });
    expect(view(h).program).toEqual([]);
    const { frame } = await h.run(CH, { kind: 'undo' });
    const restored = view(h);
    expect({ ...restored, program: noSince(restored.program) }).toEqual({
      ...before,
      program: noSince(before.program),
    });
    // The scenes go to air again (renderers play their in transitions): `since` is the undo's tick, not the first one.
    const undoTick = h.committer.ticks.at(-1)!.changes[0]!.live.updatedAt;
    expect(restored.program.map((e) => e.since)).toEqual([undoTick, undoTick]);
    expect(h.frames.at(-1)).toMatchObject({ frame, program: noSince(before.program) });
    await h.run(CH, { kind: 'redo' });
    expect(view(h).program).toEqual([]);
  });

  it('undo of a value change by a key puts the value back; changes of one actor in one tick are one action', async () => {
    const h = setup();
    await h.run(CH, patch('score', 3));
    const before = view(h);
    const first = h.engine.submit(CH, { ...patch('score', 4), by: API_BY });
    const second = h.engine.submit(CH, { ...patch('score', 5), by: API_BY });
    await h.advance();
    await Promise.all([first, second]);
    expect(view(h).inputs).toMatchObject({ score: 5 });
    await h.run(CH, { kind: 'undo' });
    expect(view(h)).toEqual(before);
    await h.run(CH, { kind: 'undo' });
    expect(view(h).inputs).toMatchObject({ score: 0 });
    await h.run(CH, { kind: 'redo' });
    await h.run(CH, { kind: 'redo' });
    expect(view(h).inputs).toMatchObject({ score: 5 });
  });

  it('refuses nothing_to_undo with nothing to undo or redo; a new action ends the redo stack', async () => {
    const h = setup();
    expect((await h.refusal(CH, { kind: 'undo' })).code).toBe('nothing_to_undo');
    expect((await h.refusal(CH, { kind: 'redo' })).code).toBe('nothing_to_undo');
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, { kind: 'undo' });
    await h.run(CH, { kind: 'cut', sceneId: 'sc_bug' });
    expect((await h.refusal(CH, { kind: 'redo' })).code).toBe('nothing_to_undo');
    expect(noSince(view(h).program)).toEqual([entry('sc_bug', 5)]);
  });

  it('does not record what hooks set: undoing a take keeps the score a hook sent since', async () => {
    const h = setup();
    await h.run(CH, patch('score', 2), HOOK_BY);
    expect((await h.refusal(CH, { kind: 'undo' })).code).toBe('nothing_to_undo');
    await h.run(CH, { kind: 'cut', sceneId: 'sc_board' });
    await h.run(CH, patch('score', 7), HOOK_BY);
    await h.run(CH, { kind: 'undo' });
    expect(view(h)).toMatchObject({ program: [], inputs: { score: 7 } });
  });

  it('works from the stored history: an engine loaded from what was written undoes the last take', async () => {
    const first = setup();
    await first.run(CH, { kind: 'cut', sceneId: 'sc_lower', values: { name: 'A' } });
    await first.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const before = view(first);
    await first.run(CH, { kind: 'take' });
    await first.engine.stop();
    const written = first.committer.ticks.at(-1)!.changes[0]!.live;
    expect(written.history.map((r) => r.kind)).toEqual(['cut', 'cue', 'take']);

    const restarted = setup({ live: written });
    await restarted.run(CH, { kind: 'undo' });
    expect(view(restarted)).toEqual(before);
    await restarted.run(CH, { kind: 'undo' });
    expect(view(restarted).preview).toEqual([]);
  });

  it('undo of a play next makes the item ready again and focuses it, so playing next plays it again', async () => {
    const h = setup();
    await withRundown(h);
    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(states(h)).toMatchObject({ it_1: 'program' });
    expect(rundown(h).focus).toBe('it_2');

    await h.run(CH, { kind: 'undo' });
    expect(view(h).program).toEqual([]);
    expect(states(h)).toMatchObject({ it_1: 'ready', it_2: 'ready' });
    expect(rundown(h).focus).toBe('it_1');

    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(noSince(view(h).program)).toEqual([entry('sc_lower', 2, { name: 'A' }, 'it_1')]);
    // An item that aired and left by a later action is done, as before.
    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    expect(states(h)).toMatchObject({ it_1: 'done', it_2: 'program' });
  });
});

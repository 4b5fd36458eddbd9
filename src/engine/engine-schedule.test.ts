/**
 * Operations at a wall-clock time in the engine: applied in the tick of the frame that holds the time, refused in
 * the past, cancelled, an item's auto-out.
 */
import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, type ScheduledOp } from '@onair/protocol';
import { API_BY, channelRecord, emptyLive, ISO, T0 } from './engine.fixtures.js';
import { CH, entry, noSince, RATE, setup, states, steps, withRundown } from './engine-show.fixtures.js';
import { frameAt, frameStart } from './frame-rate.js';

describe('schedule', () => {
  it('applies a take in the tick of the frame that holds its time, as the schedule, for whoever set it', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const atMs = Math.ceil(frameStart(RATE, frameAt(RATE, h.time.now()) + 10)) + 3;
    const at = new Date(atMs).toISOString();
    const { scheduled } = await h.run(CH, { kind: 'schedule.add', scheduleId: 'sch_1', at, action: { kind: 'take' } });
    expect(scheduled).toMatchObject({ id: 'sch_1', at, frame: frameAt(RATE, atMs), actor: API_BY.actor });
    expect(h.engine.show(CH).schedule).toEqual([scheduled]);
    expect(h.engine.state(CH).program).toEqual([]);

    h.events.length = 0;
    await steps(h, 400);
    const taken = h.committer.ticks.find((t) => t.changes[0]?.program?.length);
    expect(taken).toBeDefined();
    expect(Math.abs(taken!.frame - frameAt(RATE, atMs))).toBeLessThanOrEqual(1);
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_board', 0)]);
    expect(h.engine.show(CH).schedule).toEqual([]);
    const scheduleActor = { type: 'schedule', id: 'sch_1', name: API_BY.actor.name };
    expect(h.events.find((e) => e.type === 'channel.played')!.data).toMatchObject({
      source: 'schedule',
      actor: scheduleActor,
    });
  });

  it('refuses a time in the past (invalid_request); a cancelled entry never runs', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const past = new Date(h.time.now() - 1000).toISOString();
    const err = await h.refusal(CH, { kind: 'schedule.add', scheduleId: 'sch_0', at: past, action: { kind: 'take' } });
    expect(err).toMatchObject({ code: 'invalid_request', errors: [{ path: 'at', message: 'in the past' }] });

    const at = new Date(h.time.now() + 200).toISOString();
    await h.run(CH, { kind: 'schedule.add', scheduleId: 'sch_1', at, action: { kind: 'take' } });
    await h.run(CH, { kind: 'schedule.cancel', scheduleId: 'sch_1' });
    expect(h.engine.show(CH).schedule).toEqual([]);
    await steps(h, 400);
    expect(h.engine.state(CH).program).toEqual([]);
    expect((await h.refusal(CH, { kind: 'schedule.cancel', scheduleId: 'sch_1' })).code).toBe('not_found');
  });

  it('takes an item with a duration off air by itself once the duration is up', async () => {
    const h = setup();
    await withRundown(h, 200);
    await h.run(CH, { kind: 'rundown.play_next', rundownId: 'rd_1' });
    const since = Date.parse(h.engine.state(CH).program[0]!.since);
    expect(h.engine.show(CH).schedule).toMatchObject([
      { op: { kind: 'stop', rundownId: 'rd_1', itemId: 'it_1' }, actor: SYSTEM_ACTOR },
    ]);
    h.events.length = 0;
    await steps(h, 400);
    expect(h.engine.state(CH).program).toEqual([]);
    expect(states(h)).toMatchObject({ it_1: 'done' });
    const stopped = h.events.find((e) => e.type === 'rundown.item_stopped')!;
    expect(stopped.data).toMatchObject({ itemId: 'it_1', source: 'schedule', actor: SYSTEM_ACTOR });
    const cleared = h.committer.ticks.find((t) => t.changes[0]?.program?.length === 0)!;
    expect(Math.abs(cleared.frame - frameAt(RATE, since + 200))).toBeLessThanOrEqual(1);
  });

  it('applies an entry at the next frame when the tick that applied it could not be written', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const atMs = h.time.now() + 200;
    const at = new Date(atMs).toISOString();
    await h.run(CH, { kind: 'schedule.add', scheduleId: 'sch_1', at, action: { kind: 'take' } });
    h.committer.failNext = 1; // the tick of the entry's frame: a full disk
    await steps(h, 400);
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_board', 0)]);
    expect(h.engine.show(CH).schedule).toEqual([]);
    const taken = h.committer.ticks.find((t) => t.changes[0]?.program?.length)!;
    expect(taken.frame - frameAt(RATE, atMs)).toBeGreaterThan(0);
    expect(taken.frame - frameAt(RATE, atMs)).toBeLessThanOrEqual(2);
  });

  it('after a restart, reports an entry whose time passed over a second ago as missed; an auto-out still runs', async () => {
    const lateMs = 5000;
    const due = (id: string, op: ScheduledOp['op'], actor: ScheduledOp['actor']): ScheduledOp => ({
      id,
      at: new Date(T0 - lateMs).toISOString(),
      frame: frameAt(RATE, T0 - lateMs),
      op,
      actor,
      createdAt: ISO,
    });
    const live = {
      ...emptyLive(7),
      program: [{ ...entry('sc_lower', 2), since: ISO }],
      preview: [entry('sc_board', 0)],
      schedule: [due('sch_1', { kind: 'take' }, API_BY.actor), due('sch_2', { kind: 'clear', layer: 2 }, SYSTEM_ACTOR)],
    };
    const h = setup({ live });
    await steps(h, 100);
    expect(h.engine.state(CH)).toMatchObject({ program: [], preview: [entry('sc_board', 0)] });
    expect(h.engine.show(CH).schedule).toEqual([]);
    const missed = h.events.find((e) => e.type === 'channel.schedule_missed')!;
    expect(missed.data).toMatchObject({ scheduleId: 'sch_1', op: { kind: 'take' }, scheduledBy: API_BY.actor });
    expect(missed.data.lateMs).toBeGreaterThanOrEqual(lateMs);
    expect(h.events.find((e) => e.type === 'channel.cleared')!.data).toMatchObject({ layer: 2, actor: SYSTEM_ACTOR });
  });

  // An entry's frame is counted from its time at the channel's rate now: 60 → 25 fps keeps its time.
  it("applies an entry at its time after the channel's frame rate changed", async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    const at = new Date(h.time.now() + 200).toISOString();
    await h.run(CH, { kind: 'schedule.add', scheduleId: 'sch_1', at, action: { kind: 'take' } });
    h.engine.updateChannel({ ...channelRecord(CH), fps: 25 });
    await steps(h, 600);
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_board', 0)]);
  });

  it('does not apply an entry early when the frame rate goes up', async () => {
    const h = setup();
    await h.run(CH, { kind: 'cue', sceneId: 'sc_board' });
    h.engine.updateChannel({ ...channelRecord(CH), fps: 25 });
    const at = new Date(h.time.now() + 2_000).toISOString();
    // At 25 fps the harness's run() does not reach a frame: the op is submitted and the clock moved by hand.
    const added = h.engine.submit(CH, {
      kind: 'schedule.add',
      scheduleId: 'sch_1',
      at,
      action: { kind: 'take' },
      by: API_BY,
    });
    await steps(h, 200);
    await added;
    h.engine.updateChannel({ ...channelRecord(CH), fps: 60 });
    await steps(h, 1_000);
    expect(h.engine.state(CH).program).toEqual([]);
    await steps(h, 1_500);
    expect(noSince(h.engine.state(CH).program)).toEqual([entry('sc_board', 0)]);
  });
});

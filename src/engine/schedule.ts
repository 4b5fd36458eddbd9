/**
 * Operations at a wall-clock time (docs/rundowns.md, "Take at a time"): the server turns the time into the frame that
 * holds it and applies the operation in that frame's tick, like any other op, so it airs within one frame of the
 * time whatever a browser is doing. The schedule is part of the channel's durable state: it survives a restart, and
 * an entry whose time passed more than a second before its tick (the server was down) is not played late but
 * reported (`channel.schedule_missed`); the server's own auto-outs still run, late, so nothing stays on air for good.
 */
import type { Actor, ScheduledAction, ScheduledOp } from '@onair/protocol';
import { AppError } from '../errors.js';
import type { Draft } from './draft.js';
import { frameAt, frameRate, type FrameRate } from './frame-rate.js';
import { findItem, itemValues } from './item-values.js';
import type { Op, Origin } from './ops.js';
import { requireRundown } from './rundown-ops.js';

/** An entry later than this after its time is missed, not played. */
const LATE_MS = 1000;

type OpOf<K extends Op['kind']> = Extract<Op, { kind: K }>;

export function addScheduled(d: Draft, op: OpOf<'schedule.add'>): ScheduledOp {
  const atMs = Date.parse(op.at);
  const frame = frameAt(frameRate(d.rt.record.fps), atMs);
  if (!Number.isFinite(atMs) || frame <= d.tick.frame) {
    throw new AppError('invalid_request', `The time ${op.at} has passed: schedule a time in the future.`, {
      errors: [{ path: 'at', message: 'in the past' }],
    });
  }
  const limit = d.tick.limits.scheduledPerChannel;
  if (d.live.schedule.length >= limit) {
    const setting = 'ONAIR_LIMIT_SCHEDULED_PER_CHANNEL';
    throw new AppError('limit_reached', `A channel holds at most ${limit} scheduled operations (${setting}).`, {
      extra: { limit, setting },
    });
  }
  checkAction(d, op.action);
  const entry: ScheduledOp = {
    id: op.scheduleId,
    at: new Date(atMs).toISOString(),
    frame,
    op: op.action,
    actor: op.by.actor,
    createdAt: d.tick.nowIso,
  };
  insert(d, entry);
  return entry;
}

/** The server's own entry (an item's auto-out). */
export function scheduleSystem(d: Draft, action: ScheduledAction, atMs: number, actor: Actor): void {
  const frame = Math.max(d.tick.frame + 1, frameAt(frameRate(d.rt.record.fps), atMs));
  const id = `sch_${d.tick.eventId().slice(4)}`;
  insert(d, { id, at: new Date(atMs).toISOString(), frame, op: action, actor, createdAt: d.tick.nowIso });
}

export function cancelScheduled(d: Draft, op: OpOf<'schedule.cancel'>): void {
  if (!d.live.schedule.some((e) => e.id === op.scheduleId)) {
    throw new AppError('not_found', `Nothing with id ${op.scheduleId} is scheduled on this channel.`);
  }
  d.setSchedule(d.live.schedule.filter((e) => e.id !== op.scheduleId));
}

/** Applies every entry due by this tick's frame, before the queued ops; each failure is an event, never a throw. */
export function runDue(d: Draft, apply: (op: Op) => unknown): void {
  const { schedule } = d.live;
  const fps = d.rt.record.fps;
  if (schedule.length === 0 || dueFrame(schedule[0]!, fps) > d.tick.frame) return;
  const due = schedule.filter((e) => dueFrame(e, fps) <= d.tick.frame);
  d.setSchedule(schedule.filter((e) => dueFrame(e, fps) > d.tick.frame));
  for (const entry of due) {
    const system = entry.actor.type === 'system';
    const lateMs = d.tick.now - Date.parse(entry.at);
    const base = { scheduleId: entry.id, at: entry.at, op: entry.op, scheduledBy: entry.actor };
    const by: Origin = {
      source: 'schedule',
      actor: system ? entry.actor : { type: 'schedule', id: entry.id, name: entry.actor.name },
    };
    if (lateMs > LATE_MS && !system) {
      d.event('channel.schedule_missed', { ...base, lateMs, frame: d.tick.frame, ...by });
      continue;
    }
    try {
      apply(toOp(entry.op, by));
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'internal';
      const detail = err instanceof AppError ? err.message : 'The operation failed.';
      d.event('channel.schedule_failed', { ...base, code, detail, frame: d.tick.frame, ...by });
    }
  }
}

/**
 * The frame whose tick applies the entry, at the channel's rate now: counted from its time, so an entry keeps its time
 * when the channel's frame rate changes (its `frame` says where it stood when it was scheduled).
 */
export function dueFrame(entry: ScheduledOp, fps: FrameRate): number {
  return frameAt(frameRate(fps), Date.parse(entry.at));
}

/** Whether the channel must tick again soon for its schedule (within `frames` of `frame`). */
export function dueWithin(schedule: readonly ScheduledOp[], fps: FrameRate, frame: number, frames: number): boolean {
  return schedule.length > 0 && dueFrame(schedule[0]!, fps) <= frame + frames;
}

function toOp(action: ScheduledAction, by: Origin): Op {
  switch (action.kind) {
    case 'take':
      return { kind: 'take', layer: action.layer, by };
    case 'clear':
      return { kind: 'clear', layer: action.layer, sceneId: action.sceneId, by };
    case 'stop':
      return { kind: 'rundown.stop', rundownId: action.rundownId, itemId: action.itemId, since: action.since, by };
    case 'cue':
    case 'program': {
      const kind = action.kind === 'cue' ? 'cue' : 'cut';
      return 'itemId' in action
        ? { kind, itemId: action.itemId, by }
        : { kind, sceneId: action.sceneId, values: action.values, by };
    }
  }
}

/** The action's scene or item must exist now (and its values fit): a typo is refused at once, not at air time. */
function checkAction(d: Draft, action: ScheduledAction): void {
  switch (action.kind) {
    case 'take':
      return;
    case 'clear':
      if (action.sceneId !== undefined) d.requireScene(action.sceneId);
      return;
    case 'stop':
      findItem(d, action.itemId);
      requireRundown(d, action.rundownId);
      return;
    case 'cue':
    case 'program':
      if ('itemId' in action) findItem(d, action.itemId);
      else itemValues(d.requireScene(action.sceneId), action.values ?? {});
  }
}

function insert(d: Draft, entry: ScheduledOp): void {
  d.setSchedule(
    [...d.live.schedule, entry].sort(
      (a, b) => Date.parse(a.at) - Date.parse(b.at) || a.createdAt.localeCompare(b.createdAt),
    ),
  );
}

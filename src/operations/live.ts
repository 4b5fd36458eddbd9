/**
 * Triggers and clocks (docs/api.md, "Triggers and clocks"): fire a scene's named animation; start, stop,
 * set, reset or adjust a clock input.
 */
import { z } from 'zod';
import {
  CLOCK_ACTIONS,
  CLOCK_ADJUST_RULE,
  CLOCK_SET_RULE,
  MAX_CLOCK_ADJUST_MS,
  MAX_CLOCK_MS,
  NAME_PATTERN,
  NAME_RULE,
  type ClockState,
} from '@onair/protocol';
import { AppError } from '../errors.js';
import { originOf, type ChannelOperation } from './operation.js';

const Name = z.string().regex(NAME_PATTERN, NAME_RULE);

export const TriggerIn = z.strictObject({
  name: Name,
  payload: z.unknown().optional().meta({
    description: "What a graphic's custom action runs with (docs/ograf.md); renderers get it with the fired trigger.",
  }),
  layer: z.number().int().min(0).max(99).optional().meta({
    description: 'Only the scene on this layer (of program or preview); default: every scene on air or cued.',
  }),
});

export const fireTrigger: ChannelOperation<z.infer<typeof TriggerIn>, { frame: number }> = {
  name: 'trigger',
  scope: 'channel',
  permission: 'playout:write',
  bucket: 'updates',
  input: TriggerIn,
  async run({ services: { engine }, channel, caller }, { name, payload, layer }) {
    const op = {
      kind: 'trigger',
      name,
      by: originOf(caller),
      ...(payload === undefined ? {} : { payload }),
      ...(layer === undefined ? {} : { layer }),
    } as const;
    const { frame } = await engine.submit(channel.id, op);
    return { frame };
  },
};

type ClockBody = { action: (typeof CLOCK_ACTIONS)[number]; ms?: number | undefined; period?: number | undefined };

/** `ms` goes with set (0 to 100 h) and adjust (± 24 h), `period` with period, and neither with anything else. */
function checkMs(b: ClockBody, ctx: z.RefinementCtx): void {
  if (b.action !== 'period' && b.period !== undefined)
    ctx.addIssue({ code: 'custom', path: ['period'], message: 'only the period action takes period' });
  const needed = b.action === 'set' || b.action === 'adjust';
  if (needed && b.ms === undefined) ctx.addIssue({ code: 'custom', path: ['ms'], message: `required for ${b.action}` });
  if (!needed && b.ms !== undefined)
    ctx.addIssue({ code: 'custom', path: ['ms'], message: 'only set and adjust take ms' });
  if (b.action === 'set' && b.ms !== undefined && (b.ms < 0 || b.ms > MAX_CLOCK_MS))
    ctx.addIssue({ code: 'custom', path: ['ms'], message: `must be ${CLOCK_SET_RULE}` });
  if (b.action === 'adjust' && b.ms !== undefined && Math.abs(b.ms) > MAX_CLOCK_ADJUST_MS)
    ctx.addIssue({ code: 'custom', path: ['ms'], message: `must be ${CLOCK_ADJUST_RULE}` });
}

const clockFields = {
  action: z.enum(CLOCK_ACTIONS),
  ms: z
    .number()
    .int()
    .optional()
    .meta({ description: 'set: the time (0 to 100 h); adjust: milliseconds to add (± 24 h).' }),
  period: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'period: the index of the period to go to (0 is the first); default the next one.' }),
};

/** The body of `POST …/clocks/:name` (the name is in the path). */
export const ClockActionIn = z.strictObject(clockFields).superRefine(checkMs).meta({ id: 'ClockActionIn' });
/** The whole operation: the clock's name with the body. */
export const ClockOpIn = z.strictObject({ name: Name, ...clockFields }).superRefine(checkMs);

export interface ClockResult {
  frame: number;
  clock: ClockState;
}

export const clockAction: ChannelOperation<z.infer<typeof ClockOpIn>, ClockResult> = {
  name: 'clock',
  scope: 'channel',
  permission: 'inputs:write',
  bucket: 'updates',
  input: ClockOpIn,
  async run({ services: { engine }, channel, caller }, { name, action, ms, period }) {
    const args = { ...(ms === undefined ? {} : { ms }), ...(period === undefined ? {} : { period }) };
    const op = { kind: 'clock' as const, name, action, ...args, by: originOf(caller) };
    const result = await engine.submit(channel.id, op);
    // The engine answers every clock op with its clock: without one, something is broken (logged as a bug).
    if (!result.clock) throw new AppError('internal');
    return { frame: result.frame, clock: result.clock };
  },
};

/**
 * Resolves a scene's `{inputName}` placeholders for one render pass: the page's local overrides first
 * (CasparCG `update`), then clocks, then the channel's inputs.
 */
import type { ClockState, InputType, InputValue, SceneView } from '../../src/protocol/index.js';
import { own } from './channel-state.js';
import { clockElapsed, formatClock, formatValue, msUntilNextSecond } from './format.js';

export interface ValueSources {
  inputs: Readonly<Record<string, InputValue>>;
  overrides: Readonly<Record<string, InputValue>>;
  clocks: Readonly<Record<string, ClockState>>;
  serverNow: number;
}

export interface SceneValues {
  /** The display text of an input ('' for unknown names). */
  text(name: string): string;
  /** True only for `true` (or the string 'true', which is all a CasparCG XML update can send). */
  isTrue(name: string): boolean;
  /** Delay until a running clock read in this pass next changes its text; null when none was read. */
  nextTickMs(): number | null;
}

export function createSceneValues(scene: SceneView, sources: ValueSources): SceneValues {
  const types: Record<string, InputType> = {};
  for (const def of scene.definition.inputs) types[def.name] = def.type;
  let nextTick: number | null = null;

  function clockText(name: string): string {
    const clock = own(sources.clocks, name);
    if (!clock) return formatClock(0);
    const elapsed = clockElapsed(clock, sources.serverNow);
    if (clock.running) {
      const delay = msUntilNextSecond(elapsed);
      nextTick = nextTick === null ? delay : Math.min(nextTick, delay);
    }
    return formatClock(elapsed);
  }

  function value(name: string): InputValue | undefined {
    return own(sources.overrides, name) ?? own(sources.inputs, name);
  }

  return {
    text(name) {
      const override = own(sources.overrides, name);
      if (override !== undefined) return formatValue(override);
      const isClock = own(types, name) === 'clock' || (!own(types, name) && own(sources.clocks, name));
      return isClock ? clockText(name) : formatValue(own(sources.inputs, name));
    },
    isTrue(name) {
      const v = value(name);
      return v === true || v === 'true';
    },
    nextTickMs: () => nextTick,
  };
}

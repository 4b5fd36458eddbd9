import type { ChannelState } from '../../../renderer/src/channel-state.js';
import type { InputDef } from '@onair/protocol';
import { ClockControl } from './clock-control.js';
import type { LiveChannel } from './live-socket.js';
import { NumberStepper } from './number-stepper.js';
import { ValueField } from './value-field.js';

/** A control for every input the channel's scenes declare, by type, grouped under the first scene declaring it. */
export function InputControls({ live, state, enabled }: { live: LiveChannel; state: ChannelState; enabled: boolean }) {
  const groups = inputGroups(state);
  return (
    <section class="panel inputs" aria-labelledby="inputs-title">
      <h2 id="inputs-title">Inputs</h2>
      {groups.length === 0 && <p class="empty">The channel's scenes declare no inputs.</p>}
      {groups.map((group) => (
        <fieldset key={group.scene}>
          <legend>{group.scene}</legend>
          {group.inputs.map((def) => (
            <InputControl key={def.name} def={def} live={live} state={state} enabled={enabled} />
          ))}
        </fieldset>
      ))}
    </section>
  );
}

function InputControl({
  def: declared,
  live,
  state,
  enabled,
}: {
  def: InputDef;
  live: LiveChannel;
  state: ChannelState;
  enabled: boolean;
}) {
  const value = state.inputs[declared.name] ?? declared.default;
  // An item input's channel value is only what an instance without its own value draws: say so.
  const def = declared.scope === 'item' ? { ...declared, label: `${declared.label} (fallback for items)` } : declared;
  if (def.type === 'clock')
    return (
      <ClockControl
        def={def}
        clock={state.clocks[def.name]}
        offsetMs={state.serverOffsetMs}
        live={live}
        enabled={enabled}
      />
    );
  if (def.type === 'number')
    return <NumberStepper def={def} value={typeof value === 'number' ? value : 0} live={live} enabled={enabled} />;
  return <ValueField def={def} value={value} live={live} enabled={enabled} />;
}

/** Inputs grouped by scene (on-air scenes first), each input once. */
export function inputGroups(state: ChannelState): { scene: string; inputs: InputDef[] }[] {
  const onAir = new Set(state.program.map((p) => p.sceneId));
  const scenes = Object.values(state.scenes).sort(
    (a, b) => Number(onAir.has(b.id)) - Number(onAir.has(a.id)) || b.definition.layer - a.definition.layer,
  );
  const seen = new Set<string>();
  const groups: { scene: string; inputs: InputDef[] }[] = [];
  for (const scene of scenes) {
    const inputs = scene.definition.inputs.filter((def) => !seen.has(def.name));
    for (const def of inputs) seen.add(def.name);
    if (inputs.length > 0) groups.push({ scene: scene.name, inputs });
  }
  return groups;
}

/**
 * Dropdown choices filled from the server: regenerated with the action and feedback definitions whenever what they
 * list changes. Each dropdown also takes a typed name (allowCustom), and any option can be a Companion variable.
 */
import type { DropdownChoice } from '@companion-module/base';
import { declaredInputs, declaredTriggers, type LiveChannels } from './live-channels.js';

export interface Choices {
  channels: DropdownChoice<string>[];
  scenes: DropdownChoice<string>[];
  inputs: DropdownChoice<string>[];
  clocks: DropdownChoice<string>[];
  triggers: DropdownChoice<string>[];
  rundowns: DropdownChoice<string>[];
  items: DropdownChoice<string>[];
  sources: DropdownChoice<string>[];
  layers: DropdownChoice<string>[];
}

export function choicesOf(live: LiveChannels): Choices {
  const channels = live.list();
  const many = channels.length > 1;
  const out: Choices = {
    channels: [{ id: '', label: '(the channel that has it)' }],
    scenes: [],
    inputs: [],
    clocks: [],
    triggers: [],
    rundowns: [],
    items: [],
    sources: [],
    layers: [{ id: '', label: 'Every layer' }],
  };
  const layers = new Set<number>();
  for (const channel of channels) {
    const at = (label: string) => (many ? `${channel.name} › ${label}` : label);
    out.channels.push({ id: channel.id, label: channel.name });
    const scenes = Object.values(channel.state.scenes).sort((a, b) => a.name.localeCompare(b.name));
    for (const scene of scenes) {
      out.scenes.push({ id: scene.id, label: at(scene.name) });
      layers.add(scene.definition.layer);
    }
    for (const [name, def] of declaredInputs(channel.state.scenes)) {
      const list = def.type === 'clock' ? out.clocks : out.inputs;
      if (!list.some((c) => c.id === name)) list.push({ id: name, label: def.label ? `${name} (${def.label})` : name });
    }
    for (const name of declaredTriggers(channel.state.scenes)) {
      if (!out.triggers.some((c) => c.id === name)) out.triggers.push({ id: name, label: name });
    }
    for (const rundown of Object.values(channel.state.rundowns)) {
      out.rundowns.push({ id: rundown.id, label: at(rundown.name) });
      for (const item of rundown.items) {
        const label = item.label || channel.state.scenes[item.sceneId]?.name || item.id;
        out.items.push({ id: item.id, label: at(`${rundown.name} › ${label}`) });
      }
    }
    for (const source of channel.sources) out.sources.push({ id: source.id, label: at(source.name) });
  }
  for (const layer of [...layers].sort((a, b) => a - b))
    out.layers.push({ id: String(layer), label: `Layer ${layer}` });
  return out;
}

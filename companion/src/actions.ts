/** Every action, by stable id. Each runs the server operation of the same name (docs/companion.md, "Actions"). */
import type { CompanionActionDefinition, CompanionActionDefinitions } from '@companion-module/base';
import { declaredInputs } from './live-channels.js';
import { channelOnly, locate, type ModuleApi } from './module-api.js';
import { dropdown, optionalDropdown, textField } from './fields.js';
import { findScene, findSource, inputName, layerOf, text } from './resolve.js';
import { parseObject, parseTime, parseValue } from './values.js';
import { rundownActions } from './rundown-actions.js';

/** A data source op, before the source it acts on is found. */
type SourceOp = { op: 'source.refresh' } | { op: 'source.row'; move: 'next' | 'previous' };

export function actionDefinitions(api: ModuleApi): CompanionActionDefinitions {
  const c = api.choices();
  const channel = dropdown('channel', 'Channel', c.channels);
  const scene = dropdown('scene', 'Scene', c.scenes);
  const layer = dropdown('layer', 'Layer', c.layers);
  const sceneOp = (name: string, op: 'cue' | 'cut', description: string): CompanionActionDefinition => ({
    name,
    description,
    options: [channel, scene],
    callback: async ({ options }) => {
      const { channel: ch, found } = locate(api, options.channel, (x) => findScene(x, options.scene), 'such scene');
      await api.run(ch.id, { op, sceneId: found.id });
    },
  });
  const source = (name: string, op: SourceOp): CompanionActionDefinition => ({
    name,
    options: [channel, dropdown('source', 'Data source', c.sources)],
    callback: async ({ options }) => {
      const { channel: ch, found } = locate(
        api,
        options.channel,
        (x) => findSource(x, options.source),
        'such data source',
      );
      await api.run(ch.id, { ...op, sourceId: found.id });
    },
  });
  return {
    take: {
      name: 'Take',
      description: 'Moves what is cued in preview to air (every layer, or one).',
      options: [channel, layer],
      callback: async ({ options }) => {
        const layerNo = layerOf(options.layer);
        await api.run(
          channelOnly(api, options.channel).id,
          layerNo === undefined ? { op: 'take' } : { op: 'take', layer: layerNo },
        );
      },
    },
    cue: sceneOp('Cue a scene', 'cue', 'Puts the scene in preview on its layer.'),
    cut: sceneOp('Cut a scene to air', 'cut', 'Puts the scene straight on air, with no transition.'),
    toggle_scene: {
      name: 'Toggle a scene',
      description: 'Off air: cues it and takes its layer (its in transition). On air: clears it (its out transition).',
      options: [channel, scene],
      callback: async ({ options }) => {
        const { channel: ch, found } = locate(api, options.channel, (x) => findScene(x, options.scene), 'such scene');
        if (ch.state.program.some((e) => e.sceneId === found.id)) {
          await api.run(ch.id, { op: 'clear', sceneId: found.id });
        } else {
          await api.run(ch.id, { op: 'cue', sceneId: found.id });
          await api.run(ch.id, { op: 'take', layer: found.definition.layer });
        }
      },
    },
    clear: {
      name: 'Clear a layer or a scene',
      description: 'Takes one scene, or whatever is on one layer, off air.',
      options: [
        channel,
        optionalDropdown('scene', 'Scene', '(by layer)', c.scenes),
        optionalDropdown('layer', 'Layer', '(by scene)', c.layers.slice(1)),
      ],
      callback: async ({ options }) => {
        if (text(options.scene) !== '') {
          const { channel: ch, found } = locate(api, options.channel, (x) => findScene(x, options.scene), 'such scene');
          await api.run(ch.id, { op: 'clear', sceneId: found.id });
          return;
        }
        const layerNo = layerOf(options.layer);
        if (layerNo === undefined) throw new Error('Choose a scene or a layer to clear');
        await api.run(channelOnly(api, options.channel).id, { op: 'clear', layer: layerNo });
      },
    },
    clear_all: {
      name: 'Clear all',
      description: 'Takes everything off air.',
      options: [channel],
      callback: async ({ options }) => api.run(channelOnly(api, options.channel).id, { op: 'clear' }),
    },
    trigger: {
      name: 'Fire a trigger',
      options: [channel, dropdown('trigger', 'Trigger', c.triggers)],
      callback: async ({ options }) => {
        await api.run(channelOnly(api, options.channel).id, { op: 'trigger', name: text(options.trigger) });
      },
    },
    continue: {
      name: 'Continue (next step)',
      description: "Plays the on-air scene's next step.",
      options: [channel, layer],
      callback: async ({ options }) => {
        const layerNo = layerOf(options.layer);
        await api.run(
          channelOnly(api, options.channel).id,
          layerNo === undefined ? { op: 'continue' } : { op: 'continue', layer: layerNo },
        );
      },
    },
    ...inputActions(api),
    ...rundownActions(api),
    undo: {
      name: 'Undo',
      description: 'Takes back the last on-air action.',
      options: [channel],
      callback: async ({ options }) => api.run(channelOnly(api, options.channel).id, { op: 'undo' }),
    },
    source_refresh: source('Data source: refresh now', { op: 'source.refresh' }),
    source_row_next: source('Data source: next row', { op: 'source.row', move: 'next' }),
    source_row_previous: source('Data source: previous row', { op: 'source.row', move: 'previous' }),
  };
}

function inputActions(api: ModuleApi): CompanionActionDefinitions {
  const c = api.choices();
  const channel = dropdown('channel', 'Channel', c.channels);
  const input = dropdown('input', 'Input', c.inputs);
  const hasInput = (name: unknown) => (x: Parameters<typeof inputName>[0]) => {
    const n = inputName(x, name);
    return declaredInputs(x.state.scenes).has(n) ? n : undefined;
  };
  return {
    set_input: {
      name: 'Set an input',
      options: [channel, input, textField('value', 'Value')],
      callback: async ({ options }) => {
        const { channel: ch, found } = locate(api, options.channel, hasInput(options.input), 'such input');
        const value = parseValue(text(options.value), declaredInputs(ch.state.scenes).get(found));
        await api.run(ch.id, { op: 'patch', inputs: { [found]: value } });
      },
    },
    adjust_input: {
      name: 'Adjust a number input (score ±1)',
      options: [channel, input, { type: 'number', id: 'by', label: 'By', default: 1, min: -1000, max: 1000 }],
      callback: async ({ options }) => {
        const { channel: ch, found } = locate(api, options.channel, hasInput(options.input), 'such input');
        const current = Number(ch.state.inputs[found] ?? 0);
        await api.run(ch.id, {
          op: 'patch',
          inputs: { [found]: (Number.isFinite(current) ? current : 0) + Number(options.by ?? 1) },
        });
      },
    },
    set_inputs_json: {
      name: 'Set several inputs (JSON)',
      options: [channel, textField('json', 'Inputs (JSON object)', '{}', 'For example {"scoreA": 3, "home": "LEEDS"}')],
      callback: async ({ options }) => {
        await api.run(channelOnly(api, options.channel).id, { op: 'patch', inputs: parseObject(text(options.json)) });
      },
    },
    clock: {
      name: 'Clock: start, stop, reset, set, adjust',
      options: [
        channel,
        dropdown('clock', 'Clock', c.clocks),
        {
          type: 'dropdown',
          id: 'action',
          label: 'Action',
          default: 'start',
          choices: ['start', 'stop', 'reset', 'set', 'adjust'].map((id) => ({ id, label: id })),
        },
        textField('time', 'Time (set: m:ss; adjust: ±seconds or ±m:ss)', '', 'Only for set and adjust'),
      ],
      callback: async ({ options }) => {
        const { channel: ch, found } = locate(api, options.channel, hasInput(options.clock), 'such clock');
        const action = text(options.action);
        const timed = action === 'set' || action === 'adjust';
        await api.run(ch.id, {
          op: 'clock',
          name: found,
          action,
          ...(timed ? { ms: parseTime(text(options.time)) } : {}),
        });
      },
    },
    update_on_air: {
      name: 'Update on air',
      description: "Gives the scene on air (one scene, or one layer's) new values of its own.",
      options: [
        channel,
        optionalDropdown('scene', 'Scene', '(by layer)', c.scenes),
        optionalDropdown('layer', 'Layer', '(by scene)', c.layers.slice(1)),
        textField('json', 'Values (JSON object)', '{}'),
      ],
      callback: async ({ options }) => {
        const values = parseObject(text(options.json));
        if (text(options.scene) !== '') {
          const { channel: ch, found } = locate(api, options.channel, (x) => findScene(x, options.scene), 'such scene');
          await api.run(ch.id, { op: 'update', sceneId: found.id, values });
          return;
        }
        const layerNo = layerOf(options.layer);
        const ch = channelOnly(api, options.channel);
        await api.run(
          ch.id,
          layerNo === undefined ? { op: 'update', values } : { op: 'update', layer: layerNo, values },
        );
      },
    },
  };
}

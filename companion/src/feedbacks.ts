/**
 * Every feedback, by stable id, and which kinds of change each reads: a frame re-checks only the feedbacks of the
 * kinds it touched (FEEDBACKS_BY_KIND).
 */
import { combineRgb, type CompanionFeedbackDefinitions } from '@companion-module/base';
import { settledClock } from '@onair/protocol';
import { declaredInputs, type Kind, type LiveChannel } from './live-channels.js';
import { channelOnly, locate, type ModuleApi } from './module-api.js';
import { dropdown, textField } from './fields.js';
import { findItem, findScene, findSource, inputName, layerOf, text } from './resolve.js';

const RED = combineRgb(200, 0, 0);
const GREEN = combineRgb(0, 150, 0);
const AMBER = combineRgb(230, 140, 0);
const WHITE = combineRgb(255, 255, 255);
const GREY = combineRgb(80, 80, 80);

export const FEEDBACKS_BY_KIND: Record<Kind, string[]> = {
  program: ['scene_on_air', 'layer_on_air', 'item_on_air'],
  preview: ['scene_in_preview'],
  scenes: ['scene_on_air', 'scene_in_preview', 'input_equals', 'input_value', 'clock_running'],
  inputs: ['input_equals', 'input_value'],
  clocks: ['clock_running'],
  rundowns: ['item_on_air'],
  outputs: ['output_unhealthy'],
  sources: ['source_failing'],
  channels: [],
  frame: [],
};

/** A feedback that cannot find what it names is simply off. */
function safely(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

export function compare(actual: unknown, comparison: string, expected: string): boolean {
  const a = Number(actual);
  const b = Number(expected);
  const numeric = typeof actual === 'number' && expected.trim() !== '' && Number.isFinite(b);
  const left = numeric ? a : text(actual);
  const right = numeric ? b : expected;
  switch (comparison) {
    case 'ne':
      return left !== right;
    case 'gt':
      return left > right;
    case 'ge':
      return left >= right;
    case 'lt':
      return left < right;
    case 'le':
      return left <= right;
    case 'contains':
      return text(actual).includes(expected);
    default:
      return left === right;
  }
}

export function feedbackDefinitions(api: ModuleApi): CompanionFeedbackDefinitions {
  const c = api.choices();
  const channel = dropdown('channel', 'Channel', c.channels);
  const scene = dropdown('scene', 'Scene', c.scenes);
  const input = dropdown('input', 'Input', c.inputs);
  const onScene = (bus: 'program' | 'preview') => (options: Record<string, unknown>) =>
    safely(() => {
      const { channel: ch, found } = locate(api, options.channel, (x) => findScene(x, options.scene), 'scene');
      return ch.state[bus].some((e) => e.sceneId === found.id);
    });
  const inputValue = (options: Record<string, unknown>) => {
    const { channel: ch, found } = locate(api, options.channel, (x) => hasInput(x, options.input), 'input');
    return ch.state.inputs[found];
  };
  return {
    scene_on_air: {
      type: 'boolean',
      name: 'Scene on air',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [channel, scene],
      callback: ({ options }) => onScene('program')(options),
    },
    scene_in_preview: {
      type: 'boolean',
      name: 'Scene in preview (cued)',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [channel, scene],
      callback: ({ options }) => onScene('preview')(options),
    },
    layer_on_air: {
      type: 'boolean',
      name: 'Something on air on a layer',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [channel, dropdown('layer', 'Layer', c.layers.slice(1))],
      callback: ({ options }) =>
        safely(() => {
          const layer = layerOf(options.layer);
          return channelOnly(api, options.channel).state.program.some((e) => e.layer === layer);
        }),
    },
    item_on_air: {
      type: 'boolean',
      name: 'Rundown item on air',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [channel, dropdown('item', 'Item', c.items)],
      callback: ({ options }) =>
        safely(() => {
          const { channel: ch, found } = locate(api, options.channel, (x) => findItem(x, options.item), 'item');
          return found.item.state === 'program' || ch.state.program.some((e) => e.itemId === found.item.id);
        }),
    },
    input_equals: {
      type: 'boolean',
      name: 'Input compares to a value',
      defaultStyle: { bgcolor: AMBER, color: WHITE },
      options: [
        channel,
        input,
        {
          type: 'dropdown',
          id: 'comparison',
          label: 'Comparison',
          default: 'eq',
          choices: [
            { id: 'eq', label: '=' },
            { id: 'ne', label: '≠' },
            { id: 'gt', label: '>' },
            { id: 'ge', label: '≥' },
            { id: 'lt', label: '<' },
            { id: 'le', label: '≤' },
            { id: 'contains', label: 'contains' },
          ],
        },
        textField('value', 'Value'),
      ],
      callback: ({ options }) =>
        safely(() => compare(inputValue(options), text(options.comparison), text(options.value))),
    },
    clock_running: {
      type: 'boolean',
      name: 'Clock running',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [channel, dropdown('clock', 'Clock', c.clocks)],
      callback: ({ options }) =>
        safely(() => {
          const { channel: ch, found } = locate(api, options.channel, (x) => hasInput(x, options.clock), 'clock');
          const state = ch.state.clocks[found];
          const def = declaredInputs(ch.state.scenes).get(found) ?? {};
          return state !== undefined && settledClock(state, def, Date.now() + ch.clockOffsetMs).running;
        }),
    },
    output_unhealthy: {
      type: 'boolean',
      name: 'Output unhealthy',
      description: 'An output page of the channel is lagging or failing (or, if chosen, none is connected).',
      defaultStyle: { bgcolor: AMBER, color: WHITE },
      options: [
        channel,
        { type: 'checkbox', id: 'none', label: 'No output connected counts as unhealthy', default: false },
      ],
      callback: ({ options }) =>
        safely(() => {
          const ch = channelOnly(api, options.channel);
          if (ch.outputs.length === 0) return options.none === true;
          return ch.outputs.some((o) => o.health !== 'ok');
        }),
    },
    source_failing: {
      type: 'boolean',
      name: 'Data source failing',
      defaultStyle: { bgcolor: AMBER, color: WHITE },
      options: [channel, dropdown('source', 'Data source', c.sources)],
      callback: ({ options }) =>
        safely(
          () => locate(api, options.channel, (x) => findSource(x, options.source), 'source').found.state === 'failing',
        ),
    },
    connection_lost: {
      type: 'boolean',
      name: 'Connection to onair lost',
      defaultStyle: { bgcolor: GREY, color: WHITE },
      options: [],
      callback: () => !api.connected,
    },
    input_value: {
      type: 'value',
      name: 'Input value',
      description: "The input's value (use it in an expression or a local variable).",
      options: [channel, input],
      callback: ({ options }) => {
        try {
          const value = inputValue(options);
          return value === undefined ? null : value;
        } catch {
          return null;
        }
      },
    },
  };
}

function hasInput(channel: LiveChannel, value: unknown): string | undefined {
  const name = inputName(channel, value);
  return name in channel.state.inputs || name in channel.state.clocks ? name : undefined;
}

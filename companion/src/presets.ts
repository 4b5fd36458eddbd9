/**
 * A preset page per followed channel: a button per scene (toggle, lit red on air and green in preview), take,
 * clear all, score ± for each score input, clock start / stop, and per rundown next / play next showing the next
 * item's label.
 */
import {
  combineRgb,
  type CompanionPresetDefinitions,
  type CompanionPresetSection,
  type CompanionSimplePresetDefinition,
} from '@companion-module/base';
import { declaredInputs, type LiveChannels } from './live-channels.js';
import { channelPrefixes, rundownSegments, segment } from './variables.js';

const BLACK = combineRgb(0, 0, 0);
const WHITE = combineRgb(255, 255, 255);
const RED = combineRgb(200, 0, 0);
const GREEN = combineRgb(0, 150, 0);
const DARK_RED = combineRgb(90, 0, 0);
const BLUE = combineRgb(0, 60, 140);

type Action = { actionId: string; options: Record<string, string | number> };
type Feedback = CompanionSimplePresetDefinition['feedbacks'][number];

function button(name: string, text: string, actions: Action[], feedbacks: Feedback[] = [], bgcolor = BLACK) {
  return {
    type: 'simple',
    name,
    style: { text, size: 'auto', color: WHITE, bgcolor },
    steps: [{ down: actions, up: [] }],
    feedbacks,
  } satisfies CompanionSimplePresetDefinition;
}

export function presetDefinitions(
  live: LiveChannels,
  label: string,
): { sections: CompanionPresetSection[]; presets: CompanionPresetDefinitions } {
  const sections: CompanionPresetSection[] = [];
  const presets: CompanionPresetDefinitions = {};
  const prefixes = channelPrefixes(live);
  for (const ch of live.list()) {
    const p = prefixes.get(ch.id)!;
    const ids: string[] = [];
    const add = (id: string, preset: CompanionSimplePresetDefinition) => {
      presets[`${p}.${id}`] = preset;
      ids.push(`${p}.${id}`);
    };
    const channel = ch.id;
    const scenes = Object.values(ch.state.scenes).sort((a, b) => a.name.localeCompare(b.name));
    for (const scene of scenes) {
      const options = { channel, scene: scene.id };
      add(
        `scene.${scene.id}`,
        button(
          scene.name,
          scene.name,
          [{ actionId: 'toggle_scene', options }],
          [
            { feedbackId: 'scene_on_air', options, style: { bgcolor: RED, color: WHITE } },
            { feedbackId: 'scene_in_preview', options, style: { bgcolor: GREEN, color: WHITE } },
          ],
        ),
      );
    }
    add('take', button('Take', 'TAKE', [{ actionId: 'take', options: { channel, layer: '' } }], [], DARK_RED));
    add('clear_all', button('Clear all', 'CLEAR\\nALL', [{ actionId: 'clear_all', options: { channel } }]));
    for (const [name, def] of declaredInputs(ch.state.scenes)) {
      const variable = `$(${label}:${p}.input.${segment(name)})`;
      if (def.type === 'number' && /score/i.test(name)) {
        for (const by of [1, -1]) {
          const sign = by > 0 ? '+1' : '−1';
          add(
            `score.${name}.${by > 0 ? 'plus' : 'minus'}`,
            button(
              `${def.label || name} ${sign}`,
              `${def.label || name}\\n${variable}  ${sign}`,
              [{ actionId: 'adjust_input', options: { channel, input: name, by } }],
              [],
              BLUE,
            ),
          );
        }
      }
      if (def.type === 'clock') {
        const clockVar = `$(${label}:${p}.clock.${segment(name)})`;
        for (const action of ['start', 'stop'] as const) {
          const options = { channel, clock: name };
          add(
            `clock.${name}.${action}`,
            button(
              `${name} ${action}`,
              `${name} ${action}\\n${clockVar}`,
              [{ actionId: 'clock', options: { ...options, action, time: '' } }],
              action === 'start'
                ? [{ feedbackId: 'clock_running', options, style: { bgcolor: GREEN, color: WHITE } }]
                : [],
            ),
          );
        }
      }
    }
    const segments = rundownSegments(Object.values(ch.state.rundowns));
    for (const rundown of Object.values(ch.state.rundowns)) {
      const r = segments.get(rundown.id)!;
      const next = `$(${label}:${p}.rundown.${r}.next)`;
      const options = { channel, rundown: rundown.id };
      add(
        `rundown.${rundown.id}.next`,
        button(`${rundown.name}: next`, `NEXT\\n${next}`, [{ actionId: 'rundown_next', options }]),
      );
      add(
        `rundown.${rundown.id}.play_next`,
        button(
          `${rundown.name}: play next`,
          `PLAY\\n${next}`,
          [{ actionId: 'rundown_play_next', options }],
          [],
          DARK_RED,
        ),
      );
    }
    sections.push({ id: p, name: ch.name, description: `The channel ${ch.name} (${ch.id})`, definitions: ids });
  }
  return { sections, presets };
}

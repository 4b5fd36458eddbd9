/** The rundown actions: move the focus, cue, play next, stop (docs/rundowns.md). */
import type { CompanionActionDefinitions } from '@companion-module/base';
import { locate, type ModuleApi } from './module-api.js';
import { dropdown, optionalDropdown } from './fields.js';
import { findItem, findRundown, text } from './resolve.js';

export function rundownActions(api: ModuleApi): CompanionActionDefinitions {
  const c = api.choices();
  const channel = dropdown('channel', 'Channel', c.channels);
  const rundown = dropdown('rundown', 'Rundown', c.rundowns);
  const item = optionalDropdown('item', 'Item', '(the focused one)', c.items);
  const onRundown = (options: Record<string, unknown>) =>
    locate(api, options.channel, (x) => findRundown(x, options.rundown), 'such rundown');
  return {
    rundown_next: {
      name: 'Rundown: focus the next item',
      options: [channel, rundown],
      callback: async ({ options }) => {
        const { channel: ch, found } = onRundown(options);
        await api.run(ch.id, { op: 'rundown.focus', rundownId: found.id, move: 'next' });
      },
    },
    rundown_previous: {
      name: 'Rundown: focus the previous item',
      options: [channel, rundown],
      callback: async ({ options }) => {
        const { channel: ch, found } = onRundown(options);
        await api.run(ch.id, { op: 'rundown.focus', rundownId: found.id, move: 'previous' });
      },
    },
    rundown_play_next: {
      name: 'Rundown: play next',
      description: 'Cues and takes the next item in one frame.',
      options: [channel, rundown],
      callback: async ({ options }) => {
        const { channel: ch, found } = onRundown(options);
        await api.run(ch.id, { op: 'rundown.play_next', rundownId: found.id });
      },
    },
    rundown_cue: {
      name: 'Rundown: cue an item',
      options: [
        channel,
        item,
        optionalDropdown('rundown', 'Rundown (for the focused item)', '(the only one)', c.rundowns),
      ],
      callback: async ({ options }) => run(api, options, 'rundown.cue'),
    },
    rundown_stop: {
      name: 'Rundown: stop',
      description: 'Takes an item off air, or every item of the rundown that is on air.',
      options: [
        channel,
        item,
        optionalDropdown('rundown', 'Rundown (to stop all its items)', '(the only one)', c.rundowns),
      ],
      callback: async ({ options }) => run(api, options, 'rundown.stop'),
    },
  };
}

async function run(
  api: ModuleApi,
  options: Record<string, unknown>,
  op: 'rundown.cue' | 'rundown.stop',
): Promise<void> {
  if (text(options.item) !== '') {
    const { channel, found } = locate(api, options.channel, (x) => findItem(x, options.item), 'such rundown item');
    await api.run(channel.id, { op, rundownId: found.rundownId, itemId: found.item.id });
    return;
  }
  const { channel, found } = locate(api, options.channel, (x) => findRundown(x, options.rundown), 'such rundown');
  await api.run(channel.id, { op, rundownId: found.id });
}

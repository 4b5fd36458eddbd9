/**
 * Shared by the show-preparation tests of the engine (engine-show, engine-schedule, engine-undo): one channel at
 * 60 fps with a scoreboard (channel input), a lower third (item inputs) and a bug, on a manual clock.
 */
import type { InputDef, ProgramEntry } from '@onair/protocol';
import { channelRecord, emptyLive, engineHarness, sceneRecord } from './engine.fixtures.js';
import type { ShowLimits } from './draft.js';
import { frameRate } from './frame-rate.js';
import type { LiveState } from './model.js';
import type { OpResult, Origin } from './ops.js';

export const CH = 'ch_a';
export const RATE = frameRate(60);
const itemText = (name: string): InputDef => ({ name, type: 'text', label: name, default: '', scope: 'item' });
const score: InputDef = { name: 'score', type: 'number', label: 'Score', default: 0 };

/** A scoreboard on layer 0 (channel input), a lower third on layer 2 (item inputs name and title), a bug on 5. */
export const SCENES = [
  sceneRecord('sc_board', CH, [score]),
  sceneRecord('sc_lower', CH, [itemText('name'), itemText('title'), score], {
    layer: 2,
    triggers: [{ name: 'named', animation: 'flash', on: 'name' }],
  }),
  sceneRecord('sc_bug', CH, [], { layer: 5 }),
];

export const USER_BY: Origin = { source: 'dashboard', actor: { type: 'user', id: 'usr_1', name: 'op@example.com' } };
export const HOOK_BY: Origin = { source: 'incoming_webhook', actor: { type: 'hook', id: 'hk_1', name: 'scores' } };

/** The channel, from `live` (default: nothing set), with the default limits unless given. */
export function setup(options: { limits?: ShowLimits; live?: LiveState } = {}) {
  const stored = [{ channel: channelRecord(CH), scenes: SCENES, live: options.live ?? emptyLive(7) }];
  return engineHarness(stored, options.limits ? { limits: options.limits } : {});
}
export type Harness = ReturnType<typeof setup>;

export const entry = (sceneId: string, layer: number, values = {}, itemId: string | null = null) => ({
  sceneId,
  layer,
  itemId,
  values,
});

/** What undo must put back: the buses and the channel's values. */
export const view = (h: Harness) => {
  const { program, preview, inputs } = h.engine.state(CH);
  return { program, preview, inputs };
};
export const noSince = (program: ProgramEntry[]) => program.map(({ since: _since, ...rest }) => rest);
export const rundown = (h: Harness, id = 'rd_1') => h.engine.show(CH).rundowns.find((r) => r.id === id)!;
export const states = (h: Harness) => Object.fromEntries(rundown(h).items.map((i) => [i.id, i.state]));

/** Moves time on in small steps, so every frame's tick runs (and commits) on its own. */
export async function steps(h: Harness, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 5) await h.advance(5);
}

export const patch = (name: string, value: number | string | null) => ({
  kind: 'patch' as const,
  values: new Map([[name, value]]),
});

/** A rundown rd_1 with two straps (A, B) and the scoreboard, focus on the first; answers the create. */
export async function withRundown(h: Harness, durationMs: number | null = null): Promise<OpResult> {
  const created = await h.run(CH, { kind: 'rundown.create', rundownId: 'rd_1', name: 'Match' });
  const fields = (sceneId: string, values = {}) => ({ sceneId, values, durationMs });
  await h.run(CH, { kind: 'item.add', rundownId: 'rd_1', itemId: 'it_1', fields: fields('sc_lower', { name: 'A' }) });
  await h.run(CH, { kind: 'item.add', rundownId: 'rd_1', itemId: 'it_2', fields: fields('sc_lower', { name: 'B' }) });
  await h.run(CH, { kind: 'item.add', rundownId: 'rd_1', itemId: 'it_3', fields: fields('sc_board') });
  return created;
}

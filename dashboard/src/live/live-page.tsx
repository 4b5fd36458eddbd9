/**
 * The live operator view of one channel: preview and program monitors, scenes with cue / take / cut /
 * clear, controls for every input, triggers, the event feed and this operator's actions, with keyboard
 * shortcuts. State comes from the channel's WebSocket, so every operator sees every change at once.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { getChannel, type Channel } from '../channels-api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href, navigate } from '../router.js';
import { can, me } from '../session.js';
import { ActionsLog } from './actions-log.js';
import { ConnectionBanner } from './connection-banner.js';
import { EventFeed } from './event-feed.js';
import { InputControls, inputGroups } from './input-controls.js';
import { openLiveChannel, type LiveChannel } from './live-socket.js';
import { Monitors } from './monitors.js';
import { clear, cue, cut, SceneList, sortedScenes } from './scene-list.js';
import { SHORTCUTS, shortcutOf } from './shortcuts.js';
import { TriggerButtons } from './trigger-buttons.js';

/** The channel is read first: an unknown channel (or one outside the workspace) opens no connection. */
export function LivePage({ channelId }: { channelId: string }) {
  const { data: channel, error } = useLoad(() => getChannel(channelId), [channelId]);
  if (channel) return <LiveView channel={channel} />;
  return (
    <main id="main" class="page">
      <p class="crumbs">
        <a href={href('channels')}>Channels</a> ›
      </p>
      {error ? <Problem error={error} /> : <p class="loading">Loading…</p>}
    </main>
  );
}

function LiveView({ channel }: { channel: Channel }) {
  const channelId = channel.id;
  const live = useMemo(() => openLiveChannel(channelId), [channelId]);
  useEffect(() => () => live.close(), [live]);
  const [selected, setSelected] = useState<string | null>(null);
  const state = live.state.value;
  const status = live.status.value;
  const canPlay = can('playout:write');
  const canInputs = can('inputs:write');
  const canEdit = can('channels:write');
  useEffect(() => {
    if (live.endedBecause.value?.startsWith('Your session')) me.value = null;
  }, [live.endedBecause.value]);
  useShortcuts(live, selected, setSelected, canPlay, canInputs);

  return (
    <>
      <ConnectionBanner status={status} ended={live.endedBecause.value} />
      <main id="main" class="page live" data-status={status}>
        <div class="page-head">
          <p class="crumbs">
            <a href={href('channels')}>Channels</a> ›
          </p>
          <h1>{channel.name}</h1>
          <span class={`line-status ${status}`} role="status">
            {status === 'open' ? 'Live' : status === 'ended' ? 'Ended' : 'Connecting…'}
          </span>
          {!canPlay && !canInputs && <span class="tally">view only</span>}
          <a class="push-right" href={href('channels', channelId, 'settings')}>
            Channel settings
          </a>
        </div>
        <div class="live-grid">
          <div class="live-main">
            <Monitors channel={channel} />
            <SceneList
              live={live}
              state={state}
              channelId={channelId}
              canPlay={canPlay && status === 'open'}
              canEdit={canEdit}
              selected={selected}
              onSelect={setSelected}
            />
            <TriggerButtons live={live} state={state} enabled={canPlay && status === 'open'} />
          </div>
          <div class="live-side">
            <InputControls live={live} state={state} enabled={canInputs} />
            <ActionsLog actions={live.actions.value} />
            <EventFeed channelId={channelId} sceneName={(id) => state.scenes[id]?.name ?? id} />
            <section class="panel shortcuts" aria-labelledby="keys-title">
              <h2 id="keys-title">Keyboard</h2>
              <dl>
                {SHORTCUTS.map((s) => (
                  <div key={s.keys}>
                    <dt>
                      <kbd>{s.keys}</kbd>
                    </dt>
                    <dd>{s.does}</dd>
                  </div>
                ))}
              </dl>
            </section>
          </div>
        </div>
        {status === 'ended' && live.endedBecause.value?.includes('deleted') && (
          <p>
            <button type="button" onClick={() => navigate('channels')}>
              Back to channels
            </button>
          </p>
        )}
      </main>
    </>
  );
}

function useShortcuts(
  live: LiveChannel,
  selected: string | null,
  select: (id: string) => void,
  canPlay: boolean,
  canInputs: boolean,
): void {
  // The handler reads the selection from a ref: keys pressed faster than a re-render still act on the latest.
  const current = useRef(selected);
  current.current = selected;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutOf(e);
      if (!action) return;
      const state = live.state.value;
      const scenes = sortedScenes(state);
      const index = scenes.findIndex((s) => s.id === current.current);
      const scene = scenes[index];
      e.preventDefault();
      if (action === 'next' || action === 'previous') {
        const next = scenes[Math.max(0, Math.min(scenes.length - 1, index + (action === 'next' ? 1 : -1)))];
        if (next) {
          current.current = next.id;
          select(next.id);
        }
        return;
      }
      if (action === 'clock') {
        const clock = inputGroups(state)
          .flatMap((g) => g.inputs)
          .find((d) => d.type === 'clock');
        if (!clock || !canInputs) return;
        const running = state.clocks[clock.name]?.running === true;
        void live
          .send(`${clock.label}: ${running ? 'stop' : 'start'}`, {
            op: 'clock',
            name: clock.name,
            action: running ? 'stop' : 'start',
          })
          .catch(() => undefined);
        return;
      }
      if (!canPlay) return;
      if (action === 'take') void live.send('Take', { op: 'take' }).catch(() => undefined);
      else if (action === 'clearAll') void live.send('Clear all', { op: 'clear' }).catch(() => undefined);
      else if (scene && action === 'cue') void cue(live, scene);
      else if (scene && action === 'cut') void cut(live, scene);
      else if (scene && action === 'clear') void clear(live, scene);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [live, select, canPlay, canInputs]);
}

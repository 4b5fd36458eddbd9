/**
 * The live operator view of one channel: preview and program monitors, the playout buttons, the channel's rundown
 * and its focused item beside them (all in one screen, no page scroll, from 1280×720 up), and in a side column the
 * scenes with cue / cut / clear, triggers, the rows of the channel's cursor data sources, controls for every input,
 * this operator's actions, the event feed and the keys. State comes from the channel's WebSocket, so every operator sees every change at once.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getChannel, type Channel } from '../channels-api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href, navigate } from '../router.js';
import { createItemDrafts } from '../rundown/item-drafts.js';
import { ItemEditor } from '../rundown/item-editor.js';
import { rememberedRundown, rememberRundown, rundownsOf } from '../rundown/rundown-edits.js';
import { RundownPanel } from '../rundown/rundown-panel.js';
import { showNow } from '../rundown/show-actions.js';
import { TransportBar } from '../rundown/transport-bar.js';
import { can, me } from '../session.js';
import { ActionsLog } from './actions-log.js';
import { ClearAllDialog } from './clear-all.js';
import { ConnectionBanner } from './connection-banner.js';
import { EventFeed } from './event-feed.js';
import { InputControls } from './input-controls.js';
import { KeyboardPanel } from './keyboard-panel.js';
import { KeysOverlay } from './keys-overlay.js';
import { useLiveKeys } from './live-keys.js';
import { openLiveChannel } from './live-socket.js';
import { Monitors } from './monitors.js';
import { OutputAlert, useOutputAlert } from './output-alert.js';
import { eventAlerts } from './output-events.js';
import { SceneList } from './scene-list.js';
import { SourceCursors } from './source-cursors.js';
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
  const drafts = useMemo(() => createItemDrafts(), [channelId]);
  const [selected, setSelected] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(() => rememberedRundown(channelId));
  const state = live.state.value;
  const status = live.status.value;
  const canPlay = can('playout:write');
  const canInputs = can('inputs:write');
  const canEdit = can('channels:write');
  // The picked rundown while it exists (it may have been deleted by someone else), else the channel's first.
  const rundownId = picked && state.rundowns[picked] ? picked : (rundownsOf(state)[0]?.id ?? null);
  const show = showNow(live, rundownId, drafts);
  const pick = (id: string) => {
    setPicked(id);
    rememberRundown(channelId, id);
  };
  useEffect(() => {
    if (live.endedBecause.value?.startsWith('Your session')) me.value = null;
  }, [live.endedBecause.value]);
  useLiveKeys({ live, rundownId, drafts, selected, select: setSelected, canPlay, canInputs });
  const playable = canPlay && status === 'open';
  const outputAlert = useOutputAlert(live.outputs.value);

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
          <OutputAlert alert={outputAlert.alert} dismiss={outputAlert.dismiss} />
          <span class="push-right hint small">Press ? for the keys</span>
          <a href={href('channels', channelId, 'as-run')}>As-run</a>
          <a href={href('channels', channelId, 'settings')}>Channel settings</a>
        </div>
        {status === 'ended' && live.endedBecause.value?.includes('deleted') && (
          <p>
            <button type="button" onClick={() => navigate('channels')}>
              Back to channels
            </button>
          </p>
        )}
        <div class="live-grid">
          <div class="live-main">
            <Monitors channel={channel} outputs={live.outputs.value} onProgram={state.program.length > 0} />
            {canPlay && <TransportBar show={show} enabled={status === 'open'} />}
            <div class="show-row">
              <RundownPanel show={show} canPlay={playable} onPick={pick} />
              <ItemEditor show={show} canPlay={playable} />
            </div>
          </div>
          <div class="live-side">
            <SceneList
              live={live}
              state={state}
              channelId={channelId}
              canPlay={playable}
              canEdit={canEdit}
              selected={selected}
              onSelect={setSelected}
            />
            <TriggerButtons live={live} state={state} enabled={playable} />
            <SourceCursors channelId={channelId} live={live} enabled={canInputs} />
            <InputControls live={live} state={state} enabled={canInputs} />
            <ActionsLog actions={live.actions.value} />
            <EventFeed
              channelId={channelId}
              state={state}
              onEvents={(events) => outputAlert.raise(eventAlerts(events, state))}
            />
            <KeyboardPanel />
          </div>
        </div>
      </main>
      <ClearAllDialog live={live} state={state} />
      <KeysOverlay />
    </>
  );
}

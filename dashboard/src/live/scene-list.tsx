import type { ChannelState } from '../../../renderer/src/channel-state.js';
import type { SceneView } from '@onair/protocol';
import { href } from '../router.js';
import type { LiveChannel } from './live-socket.js';

export interface SceneListProps {
  live: LiveChannel;
  state: ChannelState;
  channelId: string;
  canPlay: boolean;
  canEdit: boolean;
  selected: string | null;
  onSelect: (sceneId: string) => void;
}

/** Scenes by layer (highest on top, as they are drawn), with their tally and cue / cut / clear (TAKE and Clear all
 * are in the transport bar). */
export function SceneList({ live, state, channelId, canPlay, canEdit, selected, onSelect }: SceneListProps) {
  const scenes = sortedScenes(state);
  const onAir = new Set(state.program.map((p) => p.sceneId));
  const cued = new Set(state.preview.map((p) => p.sceneId));
  return (
    <section class="panel scenes" aria-labelledby="scenes-title">
      <div class="panel-head">
        <h2 id="scenes-title">Scenes</h2>
      </div>
      {scenes.length === 0 && (
        <p class="empty">
          No scenes yet. {canEdit && <a href={href('channels', channelId, 'scenes')}>Add one from a template</a>}
        </p>
      )}
      <ul class="scene-list" aria-label="Scenes (J / K select)">
        {scenes.map((scene) => (
          <li
            key={scene.id}
            aria-current={selected === scene.id ? 'true' : undefined}
            class={selected === scene.id ? 'selected' : ''}
            data-scene={scene.id}
            onClick={() => onSelect(scene.id)}
          >
            <span class="scene-name">{scene.name}</span>
            <span class="layer">layer {scene.definition.layer}</span>
            {onAir.has(scene.id) && <span class="tally on">ON AIR</span>}
            {cued.has(scene.id) && <span class="tally cued">CUED</span>}
            <span class="scene-actions">
              {canPlay && (
                <>
                  <button
                    type="button"
                    class="cue"
                    onClick={() => void cue(live, scene)}
                    aria-label={`Cue ${scene.name}`}
                  >
                    Cue
                  </button>
                  <button type="button" onClick={() => void cut(live, scene)} aria-label={`Cut ${scene.name} to air`}>
                    Cut
                  </button>
                  <button
                    type="button"
                    disabled={!onAir.has(scene.id)}
                    onClick={() => void clear(live, scene)}
                    aria-label={`Clear ${scene.name}`}
                  >
                    Clear
                  </button>
                </>
              )}
              {canEdit && (
                <a href={href('channels', channelId, 'scenes', scene.id)} aria-label={`Edit ${scene.name}`}>
                  Edit
                </a>
              )}
            </span>
          </li>
        ))}
      </ul>
      {canEdit && scenes.length > 0 && (
        <p>
          <a href={href('channels', channelId, 'scenes')}>+ New scene</a>
        </p>
      )}
    </section>
  );
}

export function sortedScenes(state: ChannelState): SceneView[] {
  return Object.values(state.scenes).sort(
    (a, b) => b.definition.layer - a.definition.layer || a.name.localeCompare(b.name),
  );
}

export const cue = (live: LiveChannel, scene: SceneView) =>
  live.send(`Cue ${scene.name}`, { op: 'cue', sceneId: scene.id }).catch(() => undefined);
export const cut = (live: LiveChannel, scene: SceneView) =>
  live.send(`Cut ${scene.name}`, { op: 'cut', sceneId: scene.id }).catch(() => undefined);
export const clear = (live: LiveChannel, scene: SceneView) =>
  live.send(`Clear ${scene.name}`, { op: 'clear', sceneId: scene.id }).catch(() => undefined);

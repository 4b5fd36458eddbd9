import type { ChannelState } from '../../../renderer/src/channel-state.js';
import type { LiveChannel } from './live-socket.js';

/** A button for each trigger of the scenes on air or cued (the server plays a trigger only on those). */
export function TriggerButtons({ live, state, enabled }: { live: LiveChannel; state: ChannelState; enabled: boolean }) {
  const names = new Set<string>();
  for (const entry of [...state.program, ...state.preview]) {
    for (const trigger of state.scenes[entry.sceneId]?.definition.triggers ?? []) names.add(trigger.name);
  }
  return (
    <section class="panel triggers" aria-labelledby="triggers-title">
      <h2 id="triggers-title">Triggers</h2>
      {names.size === 0 && <p class="empty">No scene on air or cued declares a trigger.</p>}
      <div class="row">
        {[...names].sort().map((name) => (
          <button
            key={name}
            type="button"
            disabled={!enabled}
            onClick={() => void live.send(`Trigger ${name}`, { op: 'trigger', name }).catch(() => undefined)}
          >
            ▶ {name}
          </button>
        ))}
      </div>
    </section>
  );
}

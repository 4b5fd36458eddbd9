import { useState } from 'preact/hooks';
import { formValues } from '../components/form-values.js';
import { api } from '../api.js';
import {
  channelState,
  DEFAULT_FPS,
  FPS_CHOICES,
  listChannels,
  type Channel,
  type ChannelStateView,
} from '../channels-api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href, navigate } from '../router.js';
import { can } from '../session.js';

interface Row {
  channel: Channel;
  state: ChannelStateView | null;
}

/** Every channel of the workspace, with what is on air now; a new channel opens in the live view. */
export function ChannelsPage() {
  const { data, error, reload } = useLoad<Row[]>(async () => {
    const channels = await listChannels();
    const states = await Promise.all(channels.map((c) => channelState(c.id).catch(() => null)));
    return channels.map((channel, i) => ({ channel, state: states[i] ?? null }));
  }, []);
  return (
    <main id="main" class="page">
      <div class="page-head">
        <h1>Channels</h1>
        <button type="button" class="quiet" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      <Problem error={error} />
      {can('channels:write') && <CreateChannel />}
      {data && data.length === 0 && <p class="empty">No channels yet.</p>}
      {data && data.length > 0 && (
        <table class="list" aria-label="Channels">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">On air</th>
              <th scope="col">Format</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map(({ channel, state }) => (
              <tr key={channel.id} data-channel={channel.id}>
                <td>
                  <a href={href('channels', channel.id, 'live')}>{channel.name}</a>
                </td>
                <td>
                  {state === null ? (
                    '—'
                  ) : state.program.length > 0 ? (
                    <span class="tally on">
                      ON AIR · {state.program.length} layer{state.program.length > 1 ? 's' : ''}
                    </span>
                  ) : (
                    <span class="tally">off air</span>
                  )}
                </td>
                <td>
                  {channel.width}×{channel.height} · {channel.fps} fps
                </td>
                <td class="actions">
                  <a href={href('channels', channel.id, 'live')}>Operate</a>
                  <a href={href('channels', channel.id, 'settings')}>Settings</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

function CreateChannel() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    const form = formValues(event);
    setBusy(true);
    try {
      const created = await api<Channel>('POST', '/v1/channels', {
        name: (form.name ?? '').trim(),
        fps: Number(form.fps),
      });
      navigate('channels', created.id, 'live');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)} aria-label="Create a channel">
      <label>
        New channel
        <input name="name" required maxLength={100} placeholder="Main stadium feed" />
      </label>
      <label>
        Frame rate
        <select name="fps">
          {FPS_CHOICES.map((fps) => (
            <option key={fps} value={fps} selected={fps === DEFAULT_FPS}>
              {fps} fps
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Create channel
      </button>
      <Problem error={error} />
    </form>
  );
}

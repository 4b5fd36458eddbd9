import { useState } from 'preact/hooks';
import { formValues } from '../components/form-values.js';
import { api } from '../api.js';
import { FPS_CHOICES, getChannel, type Channel } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CopyField } from '../components/copy-field.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href, navigate } from '../router.js';
import { can } from '../session.js';
import { IncomingHooksSection } from '../settings/channel-incoming-hooks.js';
import { DataSourcesSection } from '../settings/channel-sources.js';

/**
 * One channel's settings: name and frame rate, its output URLs, token rotation, incoming hooks, data sources (which
 * everyone who may read the channel sees, with the controls their role allows), deletion.
 */
export function ChannelSettingsPage({ channelId }: { channelId: string }) {
  const { data: channel, error, reload } = useLoad(() => getChannel(channelId), [channelId]);
  const [actionError, setActionError] = useState<unknown>(null);
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setActionError(null);
      await reload();
    } catch (err) {
      setActionError(err);
    }
  };
  const path = `/v1/channels/${encodeURIComponent(channelId)}`;
  const writable = can('channels:write');
  return (
    <main id="main" class="page">
      <p class="crumbs">
        <a href={href('channels')}>Channels</a> ›{' '}
        <a href={href('channels', channelId, 'live')}>{channel?.name ?? channelId}</a> › Settings
      </p>
      <h1>{channel ? `${channel.name}: settings` : 'Channel settings'}</h1>
      <p>
        <a href={href('channels', channelId, 'as-run')}>As-run log</a>: what was on program, when and for how long.
      </p>
      <Problem error={error ?? actionError} />
      {channel && (
        <>
          {writable && <RenameForm channel={channel} onSave={(body) => act(() => api('PATCH', path, body))} />}
          <OutputUrls channel={channel} />
          {writable && (
            <section aria-labelledby="token-title">
              <h2 id="token-title">Output token</h2>
              <p>
                Rotating gives both URLs a new token. Pages open with the old one stop at once and show nothing: update
                every browser source afterwards.
              </p>
              <ConfirmButton
                question="Rotate the token? Every open output page goes blank until it gets the new URL."
                confirmLabel="Rotate now"
                onConfirm={() => act(() => api('POST', `${path}/output-token`))}
              >
                Rotate output token
              </ConfirmButton>
            </section>
          )}
          {writable && <IncomingHooksSection channelId={channelId} />}
          <DataSourcesSection channelId={channelId} />
          {writable && (
            <section aria-labelledby="delete-title">
              <h2 id="delete-title">Delete channel</h2>
              <p>
                Deletes the channel, its scenes and its incoming hooks. Output pages go blank. This cannot be undone.
              </p>
              <ConfirmButton
                question={`Delete ${channel.name} for good?`}
                confirmLabel="Delete channel"
                onConfirm={async () => {
                  try {
                    await api('DELETE', path);
                    navigate('channels');
                  } catch (err) {
                    setActionError(err);
                  }
                }}
              >
                Delete channel…
              </ConfirmButton>
            </section>
          )}
        </>
      )}
    </main>
  );
}

function RenameForm({ channel, onSave }: { channel: Channel; onSave: (body: object) => Promise<void> }) {
  const submit = (event: Event) => {
    const form = formValues(event);
    void onSave({ name: (form.name ?? '').trim(), fps: Number(form.fps) });
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Name and frame rate">
      <label>
        Name
        <input name="name" required maxLength={100} defaultValue={channel.name} key={channel.name} />
      </label>
      <label>
        Frame rate
        <select name="fps" key={channel.fps}>
          {FPS_CHOICES.map((fps) => (
            <option key={fps} value={fps} selected={fps === channel.fps}>
              {fps} fps
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Save</button>
    </form>
  );
}

/** The two URLs a production adds as browser sources, with how to add them in each host. */
export function OutputUrls({ channel }: { channel: Channel }) {
  return (
    <section aria-labelledby="urls-title">
      <h2 id="urls-title">Output URLs</h2>
      <CopyField label="Program output (on air)" value={channel.outputUrl} />
      <CopyField label="Preview output" value={channel.previewUrl} />
      <details>
        <summary>How to add them to OBS, vMix or CasparCG</summary>
        <ul>
          <li>
            <strong>OBS</strong>: Sources → + → Browser, paste the URL, width {channel.width}, height {channel.height},
            untick "Shutdown source when not visible" (the page keeps its state and reconnects on its own).
          </li>
          <li>
            <strong>vMix</strong>: Add Input → Web Browser, paste the URL, size {channel.width}×{channel.height}. The
            page is transparent: key it over your camera input.
          </li>
          <li>
            <strong>CasparCG</strong>: <code>PLAY 1-20 [HTML] "{channel.outputUrl}"</code>; the page answers the
            template calls play, stop, next and update.
          </li>
        </ul>
        <p>Anyone with a URL can watch that output: treat it like a password, and rotate the token if it leaks.</p>
      </details>
    </section>
  );
}

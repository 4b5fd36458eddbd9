/** API keys (docs/dashboard.md, "Settings"): create with permissions and an optional channel lock, the secret once, revoke. */
import { useState } from 'preact/hooks';
import { api, listAll } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { listChannels, type Channel } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { can } from '../session.js';
import { describedBy, FieldErrors, invalid, when } from './field-errors.js';

type Key = ApiSchemas['Key'];

const PERMISSIONS: { name: string; does: string }[] = [
  { name: 'channels:read', does: 'read channels, state, scenes, events; open the WebSocket' },
  { name: 'channels:write', does: 'create, change and delete channels, scenes, incoming hooks' },
  { name: 'inputs:write', does: 'set inputs and clocks' },
  { name: 'playout:write', does: 'cue, take, cut, clear, triggers' },
  { name: 'webhooks:manage', does: 'outgoing webhook subscriptions' },
  { name: 'keys:manage', does: 'API keys (never beyond its own permissions and channels)' },
];

export function ApiKeysPage() {
  const { data, error, reload } = useLoad(
    async () => ({ keys: await listAll<Key>('/v1/keys'), channels: await listChannels() }),
    [],
  );
  const [created, setCreated] = useState<(Key & { secret: string }) | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const names = new Map((data?.channels ?? []).map((c) => [c.id, c.name]));
  const revoke = async (key: Key) => {
    try {
      await api('DELETE', `/v1/keys/${encodeURIComponent(key.id)}`);
      setActionError(null);
      if (created?.id === key.id) setCreated(null);
      await reload();
    } catch (err) {
      setActionError(err);
    }
  };
  return (
    <main id="main" class="page">
      <h1>API keys</h1>
      <p class="hint">
        Scripts, scorekeepers and control apps send a key as <code>Authorization: Bearer onair_sk_…</code>. A key can be
        limited to some permissions and locked to some channels. Its secret is shown once, when it is created.
      </p>
      <Problem error={error ?? actionError} />
      {!data && !error && <p class="loading">Loading keys…</p>}
      {created && (
        <SecretOnce label={`Secret of ${created.name}`} value={created.secret} onDone={() => setCreated(null)} />
      )}
      {data && (
        <CreateKey
          channels={data.channels}
          onCreated={async (key) => {
            setCreated(key);
            await reload();
          }}
        />
      )}
      {data && data.keys.length === 0 && <p class="empty">No keys yet.</p>}
      {data && data.keys.length > 0 && (
        <table class="list" aria-label="API keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Permissions</th>
              <th scope="col">Channels</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.keys.map((key) => (
              <tr key={key.id} data-key={key.id} class={key.revokedAt ? 'revoked' : undefined}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{key.permissions.includes('*') ? 'everything (*)' : key.permissions.join(', ')}</td>
                <td>
                  {key.channelIds
                    ? key.channelIds.map((id) => names.get(id) ?? `${id} (deleted)`).join(', ')
                    : 'every channel'}
                </td>
                <td>{when(key.createdAt)}</td>
                <td>{when(key.lastUsedAt)}</td>
                <td class="actions">
                  {key.revokedAt ? (
                    <span class="status-disabled">revoked {when(key.revokedAt)}</span>
                  ) : (
                    <ConfirmButton
                      question={`Revoke ${key.name}? Anything using it stops working at once.`}
                      confirmLabel="Revoke"
                      onConfirm={() => revoke(key)}
                    >
                      Revoke {key.name}
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

function CreateKey({
  channels,
  onCreated,
}: {
  channels: Channel[];
  onCreated: (key: Key & { secret: string }) => Promise<void>;
}) {
  const [error, setError] = useState<unknown>(null);
  const [everything, setEverything] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const data = new FormData(form);
    const permissions = everything ? ['*'] : data.getAll('permission').map(String);
    const channelIds = data.getAll('channel').map(String);
    setBusy(true);
    try {
      const key = await api<ApiSchemas['KeyCreated']>('POST', '/v1/keys', {
        name: (values.name ?? '').trim(),
        permissions,
        ...(channelIds.length > 0 ? { channelIds } : {}),
      });
      form.reset();
      setEverything(false);
      setError(null);
      await onCreated(key);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack-form panel" onSubmit={(e) => void submit(e)} aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <label>
        Name
        <input
          name="name"
          required
          maxLength={200}
          placeholder="Scorekeeper, court 1"
          {...invalid(error, 'name', 'key-name-error')}
        />
      </label>
      <FieldErrors error={error} path="name" id="key-name-error" />
      <fieldset {...describedBy(error, 'permissions', 'key-permissions-error')}>
        <legend>Permissions (at least one)</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={everything}
            disabled={!can('*')}
            onChange={(e) => setEverything(e.currentTarget.checked)}
          />
          Everything (<code>*</code>), including permissions added later
        </label>
        {PERMISSIONS.map((p) => (
          <label class="check" key={p.name}>
            <input type="checkbox" name="permission" value={p.name} disabled={everything || !can(p.name)} />
            <code>{p.name}</code> — {p.does}
          </label>
        ))}
      </fieldset>
      <FieldErrors error={error} path="permissions" id="key-permissions-error" />
      {channels.length > 0 && (
        <fieldset {...describedBy(error, 'channelIds', 'key-channels-error')}>
          <legend>Lock to channels (none ticked: every channel, and it may create channels)</legend>
          {channels.map((c) => (
            <label class="check" key={c.id}>
              <input type="checkbox" name="channel" value={c.id} />
              {c.name}
            </label>
          ))}
        </fieldset>
      )}
      <FieldErrors error={error} path="channelIds" id="key-channels-error" />
      <Problem error={error} />
      <div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}

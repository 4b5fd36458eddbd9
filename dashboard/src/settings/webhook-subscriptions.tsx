/**
 * Outgoing webhooks (docs/webhooks.md): subscribe an https endpoint to events, the signing secret once, each
 * subscription's health (consecutive failures, why it was switched off), its delivery log, ping, and
 * "add again" for a disabled one.
 */
import { useState } from 'preact/hooks';
import { api, listAll } from '../api.js';
import { listChannels, type Channel } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { FieldErrors } from './api-keys.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

export interface Subscription {
  id: string;
  url: string;
  events: string[];
  channelId: string | null;
  description: string | null;
  status: 'enabled' | 'disabled';
  consecutiveFailures: number;
  lastError: { at: string; message: string; status: number | null } | null;
  disabledAt: string | null;
  createdAt: string;
}

const EVENT_TYPES = [
  'channel.played',
  'channel.scene_loaded',
  'channel.trigger_fired',
  'channel.bind_updated',
  'channel.cleared',
];

export function WebhooksPage() {
  const { data, error, reload } = useLoad(
    async () => ({ subs: await listAll<Subscription>('/v1/webhooks'), channels: await listChannels() }),
    [],
  );
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const created = async (sub: Subscription & { secret: string }) => {
    setSecret({ url: sub.url, secret: sub.secret });
    await reload();
  };
  const names = new Map((data?.channels ?? []).map((c) => [c.id, c.name]));
  return (
    <main id="main" class="page">
      <h1>Webhooks</h1>
      <p class="hint">
        onair POSTs signed events to your https endpoints as they happen. Verify each delivery with its signing secret
        (docs/webhooks.md). Twenty failed attempts in a row switch a subscription off.
      </p>
      <Problem error={error ?? actionError} />
      {secret && (
        <SecretOnce label={`Signing secret for ${secret.url}`} value={secret.secret} onDone={() => setSecret(null)} />
      )}
      {data && <CreateWebhook channels={data.channels} onCreated={created} />}
      {data && data.subs.length === 0 && <p class="empty">No subscriptions yet.</p>}
      {data?.subs.map((sub) => (
        <SubscriptionCard
          key={sub.id}
          sub={sub}
          channelName={sub.channelId ? (names.get(sub.channelId) ?? sub.channelId) : 'every channel'}
          onChanged={reload}
          onAddedAgain={created}
          onError={setActionError}
        />
      ))}
    </main>
  );
}

function CreateWebhook({
  channels,
  onCreated,
}: {
  channels: Channel[];
  onCreated: (sub: Subscription & { secret: string }) => Promise<void>;
}) {
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const events = new FormData(form).getAll('event').map(String);
    try {
      const sub = await api<Subscription & { secret: string }>('POST', '/v1/webhooks', {
        url: (values.url ?? '').trim(),
        events,
        ...(values.channelId ? { channelId: values.channelId } : {}),
        ...(values.description ? { description: values.description } : {}),
      });
      form.reset();
      setError(null);
      await onCreated(sub);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="stack-form panel" onSubmit={(e) => void submit(e)} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New subscription</h2>
      <label>
        Endpoint URL (https, public)
        <input name="url" type="url" required placeholder="https://scores.example.com/hooks" />
      </label>
      <FieldErrors error={error} path="url" />
      <fieldset>
        <legend>Events (none ticked: every event, including types added later)</legend>
        {EVENT_TYPES.map((type) => (
          <label class="check" key={type}>
            <input type="checkbox" name="event" value={type} />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <label>
        Channel
        <select name="channelId">
          <option value="">Every channel</option>
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Description (optional)
        <input name="description" maxLength={200} />
      </label>
      <Problem error={error} />
      <div>
        <button type="submit" class="primary">
          Add subscription
        </button>
      </div>
    </form>
  );
}

function SubscriptionCard({
  sub,
  channelName,
  onChanged,
  onAddedAgain,
  onError,
}: {
  sub: Subscription;
  channelName: string;
  onChanged: () => Promise<void>;
  onAddedAgain: (sub: Subscription & { secret: string }) => Promise<void>;
  onError: (err: unknown) => void;
}) {
  const [ping, setPing] = useState<string | null>(null);
  const [showLog, setShowLog] = useState(false);
  const path = `/v1/webhooks/${encodeURIComponent(sub.id)}`;
  const doPing = async () => {
    setPing('Pinging…');
    try {
      const r = await api<{ ok: boolean; status: number | null; durationMs: number; error: string | null }>(
        'POST',
        `${path}/ping`,
      );
      setPing(
        r.ok
          ? `Ping answered ${r.status ?? ''} in ${Math.round(r.durationMs)} ms`
          : `Ping failed: ${r.error ?? `HTTP ${r.status ?? '?'}`}`,
      );
    } catch (err) {
      onError(err);
      setPing(null);
    }
  };
  const addAgain = async () => {
    try {
      const again = await api<Subscription & { secret: string }>('POST', '/v1/webhooks', {
        url: sub.url,
        events: sub.events,
        ...(sub.channelId ? { channelId: sub.channelId } : {}),
        ...(sub.description ? { description: sub.description } : {}),
      });
      await api('DELETE', path);
      await onAddedAgain(again);
    } catch (err) {
      onError(err);
    }
  };
  return (
    <section class="panel" aria-label={`Subscription ${sub.url}`} data-webhook={sub.id}>
      <h2 class="mono">{sub.url}</h2>
      <p>
        <span class={`status-${sub.status}`}>{sub.status}</span> · events:{' '}
        {sub.events.length === 0 ? 'all' : sub.events.join(', ')} · {channelName}
        {sub.description ? ` · ${sub.description}` : ''} · consecutive failures: {sub.consecutiveFailures}
      </p>
      {sub.lastError && (
        <p class={sub.status === 'disabled' ? 'problem' : 'hint'}>
          {sub.status === 'disabled' && sub.disabledAt
            ? `Switched off ${new Date(sub.disabledAt).toLocaleString()}. `
            : ''}
          Last error ({new Date(sub.lastError.at).toLocaleString()}): {sub.lastError.message}
        </p>
      )}
      <div class="row">
        <button type="button" onClick={() => void doPing()}>
          Ping
        </button>
        <button type="button" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </button>
        {sub.status === 'disabled' && (
          <button type="button" class="primary" onClick={() => void addAgain()}>
            Add again (new secret)
          </button>
        )}
        <ConfirmButton
          question="Delete this subscription? Nothing more is sent to it."
          confirmLabel="Delete"
          onConfirm={async () => {
            try {
              await api('DELETE', path);
              await onChanged();
            } catch (err) {
              onError(err);
            }
          }}
        >
          Delete
        </ConfirmButton>
      </div>
      {sub.status === 'disabled' && (
        <p class="hint">
          Fixed the endpoint? "Add again" creates a new subscription with a new secret and deletes this one.
        </p>
      )}
      {ping && <p role="status">{ping}</p>}
      {showLog && <WebhookDeliveries path={`${path}/deliveries`} />}
    </section>
  );
}

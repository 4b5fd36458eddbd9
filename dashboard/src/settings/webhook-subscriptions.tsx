/**
 * Outgoing webhooks (docs/webhooks.md): subscribe an https endpoint to events, the signing secret once, each
 * subscription's health (consecutive failures, why it was switched off), its delivery log, ping, rolling its
 * secret (the new one once), and "add again" for a disabled one.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, listAll } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { listChannels, type Channel } from '../channels-api.js';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { FieldErrors, invalid } from './field-errors.js';
import { EVENT_TYPES, subscriptionBody, type Webhook } from './webhook-api.js';
import { SubscriptionCard } from './webhook-card.js';

export function WebhooksPage() {
  const { data, error, reload } = useLoad(
    async () => ({ subs: await listAll<Webhook>('/v1/webhooks'), channels: await listChannels() }),
    [],
  );
  const [secret, setSecret] = useState<{ label: string; secret: string } | null>(null);
  const names = new Map((data?.channels ?? []).map((c) => [c.id, c.name]));
  return (
    <main id="main" class="page">
      <h1>Webhooks</h1>
      <p class="hint">
        onair POSTs signed events to your https endpoints as they happen. Verify each delivery with its signing secret
        (docs/webhooks.md). Each event gets 3 attempts; 20 failed attempts in a row switch a subscription off.
      </p>
      <Problem error={error} />
      {!data && !error && <p class="loading">Loading subscriptions…</p>}
      {secret && <SecretOnce label={secret.label} value={secret.secret} onDone={() => setSecret(null)} />}
      {data && (
        <CreateWebhook
          channels={data.channels}
          onCreated={async (sub) => {
            setSecret({ label: `Signing secret for ${sub.url}`, secret: sub.secret });
            await reload();
          }}
        />
      )}
      {data && data.subs.length === 0 && <p class="empty">No subscriptions yet.</p>}
      {data?.subs.map((sub) => (
        <SubscriptionCard
          key={sub.id}
          sub={sub}
          channelName={sub.channelId ? (names.get(sub.channelId) ?? `${sub.channelId} (deleted)`) : 'every channel'}
          onChanged={reload}
          onSecret={(label, value) => setSecret({ label, secret: value })}
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
  onCreated: (sub: ApiSchemas['WebhookCreated']) => Promise<void>;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    const events = new FormData(form).getAll('event').map(String);
    setBusy(true);
    try {
      const sub = await api<ApiSchemas['WebhookCreated']>(
        'POST',
        '/v1/webhooks',
        subscriptionBody({
          url: (values.url ?? '').trim(),
          events,
          channelId: values.channelId || null,
          description: (values.description ?? '').trim() || null,
        }),
      );
      form.reset();
      setError(null);
      await onCreated(sub);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  // A refused endpoint is said in full beside the URL (the reason alone is terse on purpose).
  const urlMessages = error instanceof ApiError && error.code === 'endpoint_refused' ? [error.detail] : undefined;
  return (
    <form class="stack-form panel" onSubmit={(e) => void submit(e)} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New subscription</h2>
      <label>
        Endpoint URL (https, public)
        <input
          name="url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://scores.example.com/hooks"
          {...invalid(error, 'url', 'webhook-url-error', urlMessages)}
        />
      </label>
      <FieldErrors error={error} path="url" id="webhook-url-error" messages={urlMessages} />
      <fieldset>
        <legend>Events (none ticked: every event type, including types added later)</legend>
        {EVENT_TYPES.map((type) => (
          <label class="check" key={type}>
            <input type="checkbox" name="event" value={type} />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <FieldErrors error={error} path="events" id="webhook-events-error" />
      <label>
        Channel
        <select name="channelId" {...invalid(error, 'channelId', 'webhook-channel-error')}>
          <option value="">Every channel</option>
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <FieldErrors error={error} path="channelId" id="webhook-channel-error" />
      <label>
        Description (optional)
        <input name="description" maxLength={500} {...invalid(error, 'description', 'webhook-description-error')} />
      </label>
      <FieldErrors error={error} path="description" id="webhook-description-error" />
      <Problem error={error} />
      <div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add subscription'}
        </button>
      </div>
    </form>
  );
}

/**
 * One webhook subscription: its health, ping, its delivery log, rolling its secret, deletion, and "add again" once
 * it is disabled.
 */
import { useState } from 'preact/hooks';
import { api, describe } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { when } from './field-errors.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { rollSecret, subscriptionBody, type Webhook } from './webhook-api.js';

type PingResult = ApiSchemas['WebhookPing'];

export function SubscriptionCard({
  sub,
  channelName,
  onChanged,
  onSecret,
}: {
  sub: Webhook;
  channelName: string;
  onChanged: () => Promise<void>;
  /** A secret to show once, with what it is. */
  onSecret: (label: string, secret: string) => void;
}) {
  const [ping, setPing] = useState<PingResult | 'pinging' | null>(null);
  const [showLog, setShowLog] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const path = `/v1/webhooks/${encodeURIComponent(sub.id)}`;
  const disabled = sub.status === 'disabled';
  const doPing = async () => {
    setPing('pinging');
    try {
      setPing(await api<PingResult>('POST', `${path}/ping`));
      setError(null);
    } catch (err) {
      setError(err);
      setPing(null);
    }
  };
  const addAgain = async () => {
    setBusy(true);
    let again: ApiSchemas['WebhookCreated'];
    try {
      again = await api<ApiSchemas['WebhookCreated']>('POST', '/v1/webhooks', subscriptionBody(sub));
    } catch (err) {
      setError(err);
      setBusy(false);
      return;
    }
    // The new secret is shown before anything else can fail: it is never shown again.
    onSecret(`Signing secret for ${again.url} (added again)`, again.secret);
    try {
      await api('DELETE', path);
    } catch (err) {
      setError(
        new Error(
          `The new subscription was added (its secret is shown above), but this old one could not be deleted: ${describe(err)}. Delete it here.`,
        ),
      );
    }
    setBusy(false);
    await onChanged();
  };
  const roll = async () => {
    try {
      const rolled = await rollSecret(path);
      const until = when(rolled.previousSecretExpiresAt, 'now');
      onSecret(`New signing secret for ${sub.url} (the old one keeps signing until ${until})`, rolled.secret);
      setError(null);
      await onChanged();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section
      class={`panel webhook ${disabled ? 'is-disabled' : 'is-enabled'}`}
      aria-label={`Subscription ${sub.url}`}
      data-webhook={sub.id}
    >
      <h2 class="mono">{sub.url}</h2>
      <p class="webhook-facts">
        <span class={`badge ${disabled ? 'badge-off' : 'badge-on'}`}>{disabled ? 'Disabled' : 'Enabled'}</span>
        <span>
          Events: {sub.events.length === 0 ? 'every event (including types added later)' : sub.events.join(', ')}
        </span>
        <span>Channel: {channelName}</span>
        {sub.description && <span>{sub.description}</span>}
        <span>Consecutive failures: {sub.consecutiveFailures}</span>
        {sub.previousSecretExpiresAt && <span>Old secret still signs until {when(sub.previousSecretExpiresAt)}</span>}
      </p>
      {disabled && (
        <p class="problem">
          Switched off {when(sub.disabledAt, '(time unknown)')} after 20 failed attempts in a row; nothing is sent to it
          any more.
        </p>
      )}
      {sub.lastError && (
        <p class={disabled ? 'field-error' : 'hint'}>
          Last error, {when(sub.lastError.at)}: {sub.lastError.message}
          {sub.lastError.status !== null ? ` (HTTP status ${sub.lastError.status})` : ' (no HTTP answer)'}
        </p>
      )}
      {!sub.lastError && sub.consecutiveFailures > 0 && (
        <p class="hint">
          The API keeps the last error only once a subscription is switched off: see each attempt's error under
          Deliveries.
        </p>
      )}
      <div class="row">
        <button type="button" onClick={() => void doPing()} disabled={ping === 'pinging'}>
          Ping
        </button>
        <button type="button" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </button>
        {disabled && (
          <button type="button" class="primary" onClick={() => void addAgain()} disabled={busy}>
            Add again (new secret)
          </button>
        )}
        <ConfirmButton
          question="Roll the signing secret? The new one is shown once; the old one keeps signing deliveries beside it for 24 hours."
          confirmLabel="Roll"
          onConfirm={roll}
        >
          Roll secret
        </ConfirmButton>
        <ConfirmButton
          question="Delete this subscription and its delivery log? Nothing more is sent to it."
          confirmLabel="Delete"
          onConfirm={async () => {
            try {
              await api('DELETE', path);
              await onChanged();
            } catch (err) {
              setError(err);
            }
          }}
        >
          Delete
        </ConfirmButton>
      </div>
      {disabled && (
        <p class="hint">
          Fixed the endpoint? "Add again" creates a new subscription with the same URL, events, channel and description
          and a new signing secret (shown once), then deletes this one and its log.
        </p>
      )}
      <p role="status" class="ping-result">
        {ping === 'pinging' ? 'Pinging…' : ping ? pingText(ping) : ''}
      </p>
      <Problem error={error} />
      {showLog && <WebhookDeliveries path={`${path}/deliveries`} />}
    </section>
  );
}

function pingText(r: PingResult): string {
  const parts = [
    r.ok ? 'Ping answered: OK' : 'Ping failed',
    r.status === null ? 'no HTTP answer' : `HTTP ${r.status}`,
    `${Math.round(r.durationMs)} ms`,
  ];
  if (r.error) parts.push(r.error);
  return parts.join(' · ');
}

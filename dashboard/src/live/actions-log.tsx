import type { Action } from './live-socket.js';

/** What this operator sent, newest first: pending until the server answers, then done or failed, and why. */
export function ActionsLog({ actions }: { actions: Action[] }) {
  return (
    <section class="panel actions-log" aria-labelledby="actions-title">
      <h2 id="actions-title">Your actions</h2>
      {actions.length === 0 && <p class="empty">Nothing sent yet.</p>}
      <ol aria-live="polite" tabIndex={0} aria-label="Your actions, newest first">
        {actions.map((a) => (
          <li key={a.id} class={`action ${a.state}`} data-state={a.state}>
            <span class="action-state">
              {a.state === 'pending' ? 'Sending…' : a.state === 'done' ? 'Done' : 'Failed'}
            </span>{' '}
            {a.label}
            {a.detail && <span class="action-detail"> — {a.detail}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Members of the workspace (owners only): invite with a role (the link once), change roles, remove. */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { navigate } from '../router.js';
import { loadSession, me } from '../session.js';
import { FieldErrors, invalid, when } from './field-errors.js';

const ROLES = [
  { role: 'owner', does: 'everything: channels, scenes, playout, inputs, API keys, webhooks and members' },
  { role: 'operator', does: 'reads every channel, sets inputs and clocks, runs playout (cue, take, cut, clear)' },
  { role: 'viewer', does: 'reads only: watches channels, scenes, values and events, changes nothing' },
];

export function MembersPage() {
  // These lists come whole (no cursor): GET /v1/members and /v1/invitations take no query parameters.
  const { data, error, reload } = useLoad(
    async () => ({
      members: (await api<ApiSchemas['MemberList']>('GET', '/v1/members')).data,
      invitations: (await api<ApiSchemas['InvitationList']>('GET', '/v1/invitations')).data,
    }),
    [],
  );
  const [invite, setInvite] = useState<{ email: string; url: string } | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const myId = me.value?.user.id;
  const act = async (action: () => Promise<unknown>, said: string, self = false) => {
    try {
      await action();
      setActionError(null);
      setDone(said);
      if (self) {
        // Your own role or membership changed: the session's permissions (and the navigation) follow.
        await loadSession();
        if (me.value?.role !== 'owner') return navigate('channels');
      }
      await reload();
    } catch (err) {
      setActionError(err);
      setDone('');
    }
  };
  return (
    <main id="main" class="page">
      <h1>Members</h1>
      <section aria-labelledby="roles-title" class="hint">
        <h2 id="roles-title" class="visually-hidden">
          Roles
        </h2>
        <p>What each role may do in this workspace:</p>
        <ul>
          {ROLES.map((r) => (
            <li key={r.role}>
              <strong>{r.role}</strong>: {r.does}
            </li>
          ))}
        </ul>
        <p>A workspace always keeps at least one owner.</p>
      </section>
      <Problem error={error ?? actionError} />
      <p role="status">{done}</p>
      {invite && (
        <SecretOnce label={`Invitation link for ${invite.email}`} value={invite.url} onDone={() => setInvite(null)} />
      )}
      <InviteForm
        onInvited={async (email, url) => {
          setInvite({ email, url });
          await reload();
        }}
      />
      {!data && !error && <p class="loading">Loading members…</p>}
      {data && (
        <table class="list" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.members.map((m) => (
              <tr key={m.userId}>
                <td>
                  {m.email}
                  {m.userId === myId ? ' (you)' : ''}
                </td>
                <td>
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    onChange={(e) => {
                      const role = e.currentTarget.value;
                      void act(
                        () => api('PATCH', `/v1/members/${encodeURIComponent(m.userId)}`, { role }),
                        `${m.email} is now ${role}.`,
                        m.userId === myId,
                      );
                    }}
                  >
                    {ROLES.map((r) => (
                      <option key={r.role} value={r.role}>
                        {r.role}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{when(m.createdAt)}</td>
                <td class="actions">
                  <ConfirmButton
                    question={
                      m.userId === myId
                        ? 'Remove yourself from this workspace? You lose access to it at once.'
                        : `Remove ${m.email} from this workspace? Their account stays.`
                    }
                    confirmLabel="Remove"
                    onConfirm={() =>
                      act(
                        () => api('DELETE', `/v1/members/${encodeURIComponent(m.userId)}`),
                        `${m.email} was removed.`,
                        m.userId === myId,
                      )
                    }
                  >
                    Remove {m.email}
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && (
        <section aria-labelledby="pending-title">
          <h2 id="pending-title">Pending invitations</h2>
          {data.invitations.length === 0 && <p class="empty">None.</p>}
          {data.invitations.length > 0 && (
            <table class="list" aria-label="Pending invitations">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Invited</th>
                  <th scope="col">Link works until</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email}</td>
                    <td>{i.role}</td>
                    <td>{when(i.createdAt)}</td>
                    <td>{when(i.expiresAt)}</td>
                    <td class="actions">
                      <ConfirmButton
                        question={`Withdraw the invitation to ${i.email}? Its link stops working.`}
                        confirmLabel="Withdraw"
                        onConfirm={() =>
                          act(
                            () => api('DELETE', `/v1/invitations/${encodeURIComponent(i.id)}`),
                            `The invitation to ${i.email} was withdrawn.`,
                          )
                        }
                      >
                        Withdraw invitation to {i.email}
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </main>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string, url: string) => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    setBusy(true);
    try {
      const email = (values.email ?? '').trim();
      const r = await api<ApiSchemas['InvitationCreated']>('POST', '/v1/members', { email, role: values.role });
      form.reset();
      setError(null);
      await onInvited(email, r.inviteUrl);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <h2 id="invite-title" class="visually-hidden">
        Invite someone
      </h2>
      <label>
        Invite by email
        <input name="email" type="email" required maxLength={320} {...invalid(error, 'email', 'invite-email-error')} />
      </label>
      <label>
        Role
        <select name="role" {...invalid(error, 'role', 'invite-role-error')}>
          {ROLES.map((r) => (
            <option key={r.role} value={r.role} selected={r.role === 'operator'}>
              {r.role}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Inviting…' : 'Invite'}
      </button>
      <FieldErrors error={error} path="email" id="invite-email-error" />
      <FieldErrors error={error} path="role" id="invite-role-error" />
      <Problem error={error} />
    </form>
  );
}

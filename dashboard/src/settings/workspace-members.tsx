/** Members of the workspace (owners only): invite with a role (the link once), change roles, remove. */
import { useState } from 'preact/hooks';
import { api, listAll } from '../api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { formValues } from '../components/form-values.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { me } from '../session.js';
import { FieldErrors } from './api-keys.js';

interface Member {
  userId: string;
  email: string;
  role: string;
  createdAt: string;
}
interface Invitation {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  expiresAt: string;
}

const ROLES = [
  { role: 'owner', does: 'everything, including keys, webhooks and members' },
  { role: 'operator', does: 'run shows: playout, triggers, inputs and clocks' },
  { role: 'viewer', does: 'watch only' },
];

export function MembersPage() {
  const { data, error, reload } = useLoad(
    async () => ({
      members: await listAll<Member>('/v1/members'),
      invitations: await listAll<Invitation>('/v1/invitations'),
    }),
    [],
  );
  const [invite, setInvite] = useState<{ email: string; url: string } | null>(null);
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
  return (
    <main id="main" class="page">
      <h1>Members</h1>
      <ul class="hint">
        {ROLES.map((r) => (
          <li key={r.role}>
            <strong>{r.role}</strong>: {r.does}
          </li>
        ))}
      </ul>
      <Problem error={error ?? actionError} />
      {invite && (
        <SecretOnce label={`Invitation link for ${invite.email}`} value={invite.url} onDone={() => setInvite(null)} />
      )}
      <InviteForm
        onInvited={async (email, url) => {
          setInvite({ email, url });
          await reload();
        }}
      />
      {data && (
        <table class="list" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
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
                  {m.userId === me.value?.user.id ? ' (you)' : ''}
                </td>
                <td>
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    onChange={(e) => {
                      const role = e.currentTarget.value;
                      void act(() => api('PATCH', `/v1/members/${encodeURIComponent(m.userId)}`, { role }));
                    }}
                  >
                    {ROLES.map((r) => (
                      <option key={r.role} value={r.role}>
                        {r.role}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{new Date(m.createdAt).toLocaleDateString()}</td>
                <td class="actions">
                  <ConfirmButton
                    question={`Remove ${m.email} from this workspace?`}
                    confirmLabel="Remove"
                    onConfirm={() => act(() => api('DELETE', `/v1/members/${encodeURIComponent(m.userId)}`))}
                  >
                    Remove {m.email}
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.invitations.length > 0 && (
        <section aria-labelledby="pending-title">
          <h2 id="pending-title">Pending invitations</h2>
          <ul>
            {data.invitations.map((i) => (
              <li key={i.id}>
                {i.email} as {i.role}, until {new Date(i.expiresAt).toLocaleString()}{' '}
                <ConfirmButton
                  question={`Withdraw the invitation to ${i.email}?`}
                  confirmLabel="Withdraw"
                  onConfirm={() => act(() => api('DELETE', `/v1/invitations/${encodeURIComponent(i.id)}`))}
                >
                  Withdraw
                </ConfirmButton>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string, url: string) => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const values = formValues(event);
    try {
      const email = (values.email ?? '').trim();
      const r = await api<{ inviteUrl: string }>('POST', '/v1/members', { email, role: values.role });
      form.reset();
      setError(null);
      await onInvited(email, r.inviteUrl);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <h2 id="invite-title" class="visually-hidden">
        Invite someone
      </h2>
      <label>
        Invite by email
        <input name="email" type="email" required />
      </label>
      <label>
        Role
        <select name="role" defaultValue="operator">
          {ROLES.map((r) => (
            <option key={r.role} value={r.role}>
              {r.role}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary">
        Invite
      </button>
      <FieldErrors error={error} path="email" />
      <Problem error={error} />
    </form>
  );
}

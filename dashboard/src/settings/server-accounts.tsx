/**
 * The server admin's page (only the admin sees it): who may create workspaces, every account at once or account by
 * account. Whoever may create workspaces can invite people onto the server through them (docs/deploy.md, "Who may
 * do what").
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { when } from './field-errors.js';

type ServerAccount = ApiSchemas['ServerAccount'];

const EVERYONE = 'everyone';

export function ServerPage() {
  // The accounts come whole (no cursor): GET /v1/server/accounts takes no query parameters.
  const { data, error, reload } = useLoad(
    async () => ({
      settings: await api<ApiSchemas['ServerSettings']>('GET', '/v1/server/settings'),
      accounts: (await api<ApiSchemas['ServerAccountList']>('GET', '/v1/server/accounts')).data,
    }),
    [],
  );
  const [actionError, setActionError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  // What a ticked box asks for until the server has answered and the list is read again (the box shows it meanwhile).
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const act = async (box: string, value: boolean, action: () => Promise<unknown>, said: string) => {
    setAsked((a) => ({ ...a, [box]: value }));
    try {
      await action();
      setActionError(null);
      setDone(said);
    } catch (err) {
      setActionError(err);
      setDone('');
    }
    await reload();
    setAsked(({ [box]: _, ...rest }) => rest);
  };
  const setEveryone = (everyoneCreatesWorkspaces: boolean) =>
    act(
      EVERYONE,
      everyoneCreatesWorkspaces,
      () => api('PATCH', '/v1/server/settings', { everyoneCreatesWorkspaces }),
      everyoneCreatesWorkspaces
        ? 'Every account may now create workspaces.'
        : 'Only the accounts ticked below may now create workspaces.',
    );
  const setAccount = (a: ServerAccount, createsWorkspaces: boolean) =>
    act(
      a.id,
      createsWorkspaces,
      () => api('PATCH', `/v1/server/accounts/${encodeURIComponent(a.id)}`, { createsWorkspaces }),
      `${a.email} ${createsWorkspaces ? 'may now' : 'may no longer'} create workspaces.`,
    );
  return (
    <main id="main" class="page">
      <h1>Server</h1>
      <section aria-labelledby="trust-title" class="hint">
        <h2 id="trust-title" class="visually-hidden">
          Who may create workspaces
        </h2>
        <p>
          You are this server's admin. Whoever may create workspaces can also invite anyone onto the server through
          them: allow only people you trust. Withdrawing it also stops the invitations of their workspaces from creating
          accounts, unless another owner there may still create workspaces.
        </p>
      </section>
      <Problem error={error ?? actionError} />
      <p role="status">{done}</p>
      {!data && !error && <p class="loading">Loading accounts…</p>}
      {data && (
        <label class="check">
          <input
            type="checkbox"
            checked={asked[EVERYONE] ?? data.settings.everyoneCreatesWorkspaces}
            onChange={(e) => void setEveryone(e.currentTarget.checked)}
          />
          Every account may create workspaces (for a server whose every account you trust; the ticks below apply again
          once this is off)
        </label>
      )}
      {data && (
        <table class="list" aria-label="Accounts">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Since</th>
              <th scope="col">Owns</th>
              <th scope="col">May create workspaces</th>
            </tr>
          </thead>
          <tbody>
            {data.accounts.map((a) => (
              <tr key={a.id}>
                <td>
                  {a.email}
                  {a.serverAdmin ? ' (server admin: you)' : ''}
                </td>
                <td>{when(a.createdAt)}</td>
                <td>
                  {a.ownedWorkspaces} workspace{a.ownedWorkspaces === 1 ? '' : 's'}
                </td>
                <td>
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={asked[a.id] ?? a.createsWorkspaces}
                      disabled={a.serverAdmin}
                      onChange={(e) => void setAccount(a, e.currentTarget.checked)}
                    />
                    <span class="visually-hidden">{a.email} may create workspaces</span>
                  </label>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

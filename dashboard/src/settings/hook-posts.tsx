/**
 * An incoming hook's last 50 posts, newest first, with what each applied and ignored, its errors in plain sight;
 * then the posts refused at its door (rate limited, badly signed, replayed), one line per second with a count.
 */
import { api } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { when } from './field-errors.js';

type Refusal = ApiSchemas['IncomingHookRefusal'];

/** `path` is the hook's own path; its two logs are below it. */
export function HookPosts({ path, name }: { path: string; name: string }) {
  const { data, error, reload } = useLoad(async () => {
    const [posts, refusals] = await Promise.all([
      api<ApiSchemas['IncomingHookDeliveryList']>('GET', `${path}/deliveries`),
      api<ApiSchemas['IncomingHookRefusalList']>('GET', `${path}/refusals`),
    ]);
    return { ...posts, refusals: refusals.data };
  }, [path]);
  const failed = data?.data.filter((p) => p.error !== null).length ?? 0;
  return (
    <div class="hook-posts">
      <div class="row">
        <h4>Recent posts</h4>
        <button type="button" class="quiet" onClick={() => void reload()}>
          Refresh posts
        </button>
        {failed > 0 && <span class="status-disabled">{failed} failed</span>}
      </div>
      <Problem error={error} />
      {!data && !error && <p class="loading">Loading posts…</p>}
      {data && data.data.length === 0 && <p class="empty">Nothing posted yet.</p>}
      {data && data.data.length > 0 && (
        <table class="list" aria-label={`Recent posts to ${name}`}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Applied</th>
              <th scope="col">Ignored</th>
              <th scope="col">Error</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((p, i) => (
              <tr key={`${p.at}-${i}`} data-status={p.status}>
                <td>
                  {when(p.at)}
                  {p.dryRun ? ' (dry run)' : ''}
                </td>
                <td class={p.status < 300 ? 'status-enabled' : 'status-disabled'}>{p.status}</td>
                <td>
                  <code>{JSON.stringify(p.applied)}</code>
                </td>
                <td>{p.ignored.join(', ')}</td>
                <td class={p.error ? 'field-error' : undefined}>{p.error ?? ''}</td>
                <td>
                  <details>
                    <summary>Body</summary>
                    <pre class="mono post-body">{p.payload}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.refusals.length > 0 && <HookRefusals refusals={data.refusals} name={name} />}
    </div>
  );
}

function HookRefusals({ refusals, name }: { refusals: Refusal[]; name: string }) {
  const total = refusals.reduce((n, r) => n + r.count, 0);
  return (
    <>
      <div class="row">
        <h4>Refused posts</h4>
        <span class="status-disabled">{total} refused</span>
      </div>
      <p class="hint">
        Refused before they were read (too many, a bad signature, a replay): one line per second, the first of that
        second shown.
      </p>
      <table class="list" aria-label={`Refused posts to ${name}`}>
        <thead>
          <tr>
            <th scope="col">Second</th>
            <th scope="col">Posts</th>
            <th scope="col">Status</th>
            <th scope="col">Error</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
        <tbody>
          {refusals.map((r) => (
            <tr key={r.at} data-status={r.status}>
              <td>{when(r.at)}</td>
              <td>{r.count}</td>
              <td class="status-disabled">{r.status}</td>
              <td class="field-error">{r.error}</td>
              <td>
                <details>
                  <summary>Body</summary>
                  <pre class="mono post-body">{r.payload}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

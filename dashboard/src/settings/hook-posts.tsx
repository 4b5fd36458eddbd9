import { api, type Page } from '../api.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';

interface Post {
  at: string;
  status: number;
  applied: Record<string, unknown>;
  ignored: string[];
  error: string | null;
  dryRun: boolean;
}

/** An incoming hook's last 50 posts, newest first, errors in plain sight. */
export function HookPosts({ path }: { path: string }) {
  const { data, error, reload } = useLoad(() => api<Page<Post>>('GET', path), [path]);
  return (
    <div class="hook-posts">
      <div class="row">
        <h4>Recent posts</h4>
        <button type="button" class="quiet" onClick={() => void reload()}>
          Refresh posts
        </button>
      </div>
      <Problem error={error} />
      {data && data.data.length === 0 && <p class="empty">Nothing posted yet.</p>}
      {data && data.data.length > 0 && (
        <table class="list" aria-label="Recent posts">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Applied</th>
              <th scope="col">Ignored</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((p, i) => (
              <tr key={`${p.at}-${i}`}>
                <td>
                  {new Date(p.at).toLocaleTimeString()}
                  {p.dryRun ? ' (dry run)' : ''}
                </td>
                <td class={p.status < 300 ? 'status-enabled' : 'status-disabled'}>{p.status}</td>
                <td>
                  <code>{JSON.stringify(p.applied)}</code>
                </td>
                <td>{p.ignored.join(', ')}</td>
                <td class={p.error ? 'field-error' : ''}>{p.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

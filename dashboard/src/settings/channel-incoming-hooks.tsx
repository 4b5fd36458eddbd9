/**
 * A channel's incoming hooks (docs/incoming-hooks.md): create with a mapping, the URL (and secret) once with a
 * curl to try it, edit the name and mapping, delete, and each hook's recent posts.
 */
import { useState } from 'preact/hooks';
import { api, listAll } from '../api.js';
import { listScenes } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { FieldErrors } from './api-keys.js';
import { HookPosts } from './hook-posts.js';
import { MappingEditor, type InputChoice } from './mapping-editor.js';

interface Hook {
  id: string;
  name: string;
  mapping: Record<string, string>;
  requireSignature: boolean;
  createdAt: string;
}

export function IncomingHooksSection({ channelId }: { channelId: string }) {
  const base = `/v1/channels/${encodeURIComponent(channelId)}/incoming-hooks`;
  const { data, error, reload } = useLoad(async () => {
    const scenes = await listScenes(channelId);
    const inputs = new Map<string, InputChoice>();
    for (const scene of scenes) for (const i of scene.inputs) if (!inputs.has(i.name)) inputs.set(i.name, i);
    return { hooks: await listAll<Hook>(base), inputs: [...inputs.values()] };
  }, [channelId]);
  const [created, setCreated] = useState<{ url: string; secret: string | null } | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  return (
    <section aria-labelledby="hooks-title">
      <h2 id="hooks-title">Incoming hooks</h2>
      <p class="hint">
        A hook is a URL your scorekeeper or game server POSTs JSON to; its fields are mapped onto this channel's inputs
        and drawn on the next frame. The URL is the credential.
      </p>
      <Problem error={error ?? actionError} />
      {created && (
        <>
          <SecretOnce label="Hook URL" value={created.url} onDone={() => setCreated(null)} />
          {created.secret && <SecretOnce label="Hook signing secret" value={created.secret} />}
          <pre class="mono">{`curl -s -X POST '${created.url}' -H 'Content-Type: application/json' -d '{"scoreA": 1}'`}</pre>
        </>
      )}
      {data && (
        <HookForm
          inputs={data.inputs}
          submitLabel="Create hook"
          withSignature
          onSubmit={async (body) => {
            const hook = await api<{ url: string; secret: string | null }>('POST', base, body);
            setCreated({ url: hook.url, secret: hook.secret });
            await reload();
          }}
        />
      )}
      {data?.hooks.map((hook) => (
        <HookCard
          key={hook.id}
          hook={hook}
          inputs={data.inputs}
          path={`${base}/${encodeURIComponent(hook.id)}`}
          onChanged={reload}
          onError={setActionError}
        />
      ))}
    </section>
  );
}

function HookCard(props: {
  hook: Hook;
  inputs: InputChoice[];
  path: string;
  onChanged: () => Promise<void>;
  onError: (err: unknown) => void;
}) {
  const { hook, path } = props;
  const [editing, setEditing] = useState(false);
  const mapping = Object.entries(hook.mapping);
  return (
    <div class="panel" role="group" aria-label={`Hook ${hook.name}`} data-hook={hook.id}>
      <h3>{hook.name}</h3>
      <p>
        {mapping.length === 0 ? 'Field names are input names.' : mapping.map(([f, i]) => `${f} → ${i}`).join(', ')}
        {hook.requireSignature ? ' · signed posts only' : ''}
      </p>
      <div class="row">
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
          {editing ? 'Close editor' : `Edit ${hook.name}`}
        </button>
        <ConfirmButton
          question={`Delete ${hook.name}? Its URL stops working at once.`}
          confirmLabel="Delete hook"
          onConfirm={async () => {
            try {
              await api('DELETE', path);
              await props.onChanged();
            } catch (err) {
              props.onError(err);
            }
          }}
        >
          Delete {hook.name}
        </ConfirmButton>
      </div>
      {editing && (
        <HookForm
          inputs={props.inputs}
          initial={hook}
          submitLabel="Save hook"
          onSubmit={async (body) => {
            await api('PATCH', path, { name: body.name, mapping: body.mapping });
            setEditing(false);
            await props.onChanged();
          }}
        />
      )}
      <HookPosts path={`${path}/deliveries`} />
    </div>
  );
}

interface HookBody {
  name: string;
  mapping: Record<string, string>;
  requireSignature?: boolean;
}

function HookForm(props: {
  inputs: InputChoice[];
  initial?: Hook;
  submitLabel: string;
  withSignature?: boolean;
  onSubmit: (body: HookBody) => Promise<void>;
}) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [rows, setRows] = useState<[string, string][]>(Object.entries(props.initial?.mapping ?? {}));
  const [signed, setSigned] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await props.onSubmit({
        name: name.trim(),
        mapping: Object.fromEntries(rows),
        ...(props.withSignature ? { requireSignature: signed } : {}),
      });
      if (!props.initial) {
        setName('');
        setRows([]);
        setSigned(false);
      }
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="stack-form" onSubmit={(e) => void submit(e)} aria-label={props.submitLabel}>
      <label>
        Hook name
        <input value={name} required maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <MappingEditor inputs={props.inputs} value={rows} onChange={setRows} />
      <FieldErrors error={error} path="mapping" />
      {props.withSignature && (
        <label class="check">
          <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.currentTarget.checked)} />
          Require a signature (the sender signs each post with the secret shown once)
        </label>
      )}
      <Problem error={error} />
      <div>
        <button type="submit" class="primary">
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

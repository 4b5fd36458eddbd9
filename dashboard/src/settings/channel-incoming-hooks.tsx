/**
 * A channel's incoming hooks (docs/incoming-hooks.md): create with a mapping, the URL (and secret) once with a
 * curl to try it, edit the name and mapping, delete, and each hook's recent posts.
 */
import { useState } from 'preact/hooks';
import { api, listAll } from '../api.js';
import type { ApiSchemas } from '../api-types.js';
import { channelInputs } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { SecretOnce } from '../components/secret-once.js';
import { useLoad } from '../components/use-load.js';
import { FieldErrors, invalid, when } from './field-errors.js';
import { CurlExample, curlExample, exampleBody } from './hook-example.js';
import { HookPosts } from './hook-posts.js';
import { duplicateFields, MappingEditor, toRows, type InputChoice, type MappingRow } from './mapping-editor.js';

type Hook = ApiSchemas['IncomingHook'];
type CreatedHook = ApiSchemas['IncomingHookCreated'];

export function IncomingHooksSection({ channelId }: { channelId: string }) {
  const base = `/v1/channels/${encodeURIComponent(channelId)}/incoming-hooks`;
  const { data, error, reload } = useLoad(async () => {
    const inputs: InputChoice[] = await channelInputs(channelId);
    return { hooks: await listAll<Hook>(base), inputs };
  }, [channelId]);
  const [created, setCreated] = useState<CreatedHook | null>(null);
  return (
    <section aria-labelledby="hooks-title">
      <h2 id="hooks-title">Incoming hooks</h2>
      <p class="hint">
        A hook is a URL your scorekeeper or game server POSTs JSON to; its fields are mapped onto this channel's inputs
        and drawn on the next frame. The URL is the credential: it is shown once, when the hook is created.
      </p>
      <Problem error={error} />
      {!data && !error && <p class="loading">Loading hooks…</p>}
      {created && data && (
        <div class="panel hook-created">
          <SecretOnce label={`URL of ${created.name}`} value={created.url} onDone={() => setCreated(null)} />
          {created.secret && <SecretOnce label={`Signing secret of ${created.name}`} value={created.secret} />}
          <CurlExample command={curlExample(created.url, exampleBody(created.mapping, data.inputs), created.secret)} />
        </div>
      )}
      {data && (
        <HookForm
          inputs={data.inputs}
          title="New hook"
          submitLabel="Create hook"
          withSignature
          onSubmit={async (body) => {
            setCreated(await api<CreatedHook>('POST', base, body));
            await reload();
          }}
        />
      )}
      {data && data.hooks.length === 0 && <p class="empty">No incoming hooks yet.</p>}
      {data?.hooks.map((hook) => (
        <HookCard
          key={hook.id}
          hook={hook}
          inputs={data.inputs}
          path={`${base}/${encodeURIComponent(hook.id)}`}
          onChanged={reload}
        />
      ))}
    </section>
  );
}

function HookCard(props: { hook: Hook; inputs: InputChoice[]; path: string; onChanged: () => Promise<void> }) {
  const { hook, path } = props;
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mapping = Object.entries(hook.mapping);
  return (
    <div class="panel" role="group" aria-label={`Hook ${hook.name}`} data-hook={hook.id}>
      <h3>{hook.name}</h3>
      <dl class="hook-facts">
        <dt>Mapping</dt>
        <dd>
          {mapping.length === 0 ? (
            'none: each top-level field sets the input of the same name'
          ) : (
            <ul>
              {mapping.map(([field, input]) => (
                <li key={field}>
                  <code>{field}</code> → <code>{input}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Signature</dt>
        <dd>{hook.requireSignature ? 'required: unsigned posts are refused' : 'not required'}</dd>
        <dt>Created</dt>
        <dd>{when(hook.createdAt)}</dd>
      </dl>
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
              setError(err);
            }
          }}
        >
          Delete {hook.name}
        </ConfirmButton>
      </div>
      <Problem error={error} />
      {editing && (
        <HookForm
          inputs={props.inputs}
          initial={hook}
          title={`Edit ${hook.name}`}
          submitLabel="Save hook"
          onSubmit={async (body) => {
            await api('PATCH', path, { name: body.name, mapping: body.mapping });
            setEditing(false);
            await props.onChanged();
          }}
        />
      )}
      <HookPosts path={path} name={hook.name} />
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
  title: string;
  submitLabel: string;
  withSignature?: boolean;
  onSubmit: (body: HookBody) => Promise<void>;
}) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [rows, setRows] = useState<MappingRow[]>(toRows(props.initial?.mapping ?? {}));
  const [signed, setSigned] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const id = props.initial ? `hook-${props.initial.id}` : 'new-hook';
  const submit = async (event: Event) => {
    event.preventDefault();
    if (duplicateFields(rows).size > 0) return; // said beside the rows
    setBusy(true);
    try {
      await props.onSubmit({
        name: name.trim(),
        mapping: Object.fromEntries(rows.map((r) => [r.field.trim(), r.input])),
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
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack-form" onSubmit={(e) => void submit(e)} aria-label={props.title}>
      <h3 class={props.initial ? 'visually-hidden' : undefined}>{props.title}</h3>
      <label>
        Hook name
        <input
          value={name}
          required
          maxLength={200}
          placeholder="Scorekeeper"
          onInput={(e) => setName(e.currentTarget.value)}
          {...invalid(error, 'name', `${id}-name-error`)}
        />
      </label>
      <FieldErrors error={error} path="name" id={`${id}-name-error`} />
      <MappingEditor inputs={props.inputs} rows={rows} onChange={setRows} error={error} idPrefix={id} />
      {props.withSignature && (
        <label class="check">
          <input type="checkbox" checked={signed} onChange={(e) => setSigned(e.currentTarget.checked)} />
          Require a signature (each post signed with a secret shown once, as in docs/incoming-hooks.md)
        </label>
      )}
      <Problem error={error} />
      <div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : props.submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * The scene editor once a definition is open: the form (or the JSON view), checked by a dry run as the user
 * types, the preview drawn by the real output page, and Save / Delete. Nothing reaches the server's store, or
 * the air, until Save; when the scene is on air or cued, the editor says so and what Save will do to air. Leaving
 * with unsaved changes asks first.
 */
import { useState } from 'preact/hooks';
import type { SceneView } from '@onair/protocol';
import { api, type FieldError } from '../api.js';
import type { Channel, SceneRecord } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { navigate } from '../router.js';
import { withKey, type Obj } from './draft.js';
import { scenePath } from './editor-data.js';
import { focusPath } from './path-errors.js';
import { CheckStatus, ErrorSummary } from './editor-status.js';
import { ElementsSection } from './elements-section.js';
import { OnAirNotice } from './on-air-notice.js';
import { NumberField, TextField } from './fields.js';
import { InputsSection } from './inputs-section.js';
import { JsonView } from './json-view.js';
import { SketchPreview } from './sketch-preview.js';
import type { LiveValues } from './sketch-snapshot.js';
import { TransitionsSection } from './transitions-section.js';
import { TriggersSection } from './triggers-section.js';
import { useDraft } from './use-draft.js';
import { useDryRun } from './use-dry-run.js';
import { useLeaveGuard } from './use-leave-guard.js';
import { useSceneBuses } from './use-scene-buses.js';

export interface SceneEditorProps {
  channel: Channel;
  live: LiveValues | null;
  /** null: a new scene, created by Save. */
  sceneId: string | null;
  initialName: string;
  initialDefinition: Obj;
  /** What the preview draws before the first check (a saved scene, a template); null draws nothing. */
  initialValid: SceneView | null;
  writable: boolean;
}

const bodyKey = (name: string, definition: Obj) => JSON.stringify({ name, definition });

export function SceneEditor(props: SceneEditorProps) {
  const { channel, live, sceneId, writable } = props;
  const json = useDraft(props.initialDefinition);
  const [name, setName] = useState(props.initialName);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [saved, setSaved] = useState(sceneId === null ? null : bodyKey(props.initialName, props.initialDefinition));
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const body = writable && json.parseError === null ? { name, definition: json.draft } : null;
  const dry = useDryRun(channel.id, sceneId, body, props.initialValid);
  const errors = json.parseError === null ? dry.errors : [];
  const dirty = saved !== bodyKey(name, json.draft);
  const buses = useSceneBuses(channel.id, sceneId);
  const allowLeave = useLeaveGuard(
    writable && dirty
      ? sceneId === null
        ? `The new scene${name ? ` ${name}` : ''} is not created yet: leaving drops it.`
        : `Your changes to ${name} are not saved: leaving drops them.`
      : null,
  );

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setNotice('');
    try {
      await action();
      setActionError(null);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    act(async () => {
      const payload = { name, definition: json.draft };
      if (sceneId === null) {
        const created = await api<SceneRecord>('POST', scenePath(channel.id), payload);
        allowLeave();
        navigate('channels', channel.id, 'scenes', created.id);
        return;
      }
      await api('PUT', scenePath(channel.id, sceneId), payload);
      setSaved(bodyKey(name, json.draft));
      setNotice('Saved.');
    });
  // An error's field: the form draws it (after switching back from the JSON view).
  const show = (path: string) => {
    setMode('form');
    setTimeout(() => focusPath(path), 0);
  };
  const remove = () =>
    act(async () => {
      if (sceneId === null) return;
      await api('DELETE', scenePath(channel.id, sceneId));
      allowLeave();
      navigate('channels', channel.id, 'live');
    });

  return (
    <div class="editor-grid">
      <div class="editor-main">
        {writable && <ErrorSummary dry={dry} parseError={json.parseError} onShow={show} />}
        {writable ? (
          <>
            <div class="row mode-switch" role="group" aria-label="Edit the definition as">
              <button type="button" aria-pressed={mode === 'form'} onClick={() => setMode('form')}>
                Form
              </button>
              <button type="button" aria-pressed={mode === 'json'} onClick={() => setMode('json')}>
                JSON
              </button>
            </div>
            {mode === 'form' ? (
              <SceneForm
                name={name}
                definition={json.draft}
                errors={errors}
                locked={json.parseError !== null}
                onName={setName}
                onChange={json.setDraft}
              />
            ) : (
              <JsonView
                text={json.text}
                parseError={json.parseError}
                errors={errors}
                readOnly={false}
                onInput={json.setText}
              />
            )}
          </>
        ) : (
          <>
            <p class="hint">You can read this scene; changing it needs the channels:write permission.</p>
            <JsonView text={json.text} parseError={null} errors={[]} readOnly onInput={() => undefined} />
          </>
        )}
      </div>
      <aside class="editor-side" aria-label="Preview and saving">
        <OnAirNotice buses={buses} />
        <SketchPreview channel={channel} scene={dry.valid} live={live} />
        <CheckStatus dry={dry} parseError={json.parseError} writable={writable} />
        {writable && (
          <div class="row editor-actions">
            <button
              type="button"
              class="primary"
              disabled={busy || json.parseError !== null || (!dirty && sceneId !== null)}
              onClick={() => void save()}
            >
              {sceneId === null ? 'Create scene' : 'Save'}
            </button>
            <span class="hint" role="status">
              {notice || (sceneId === null ? 'Not saved yet.' : dirty ? 'Unsaved changes.' : 'No changes.')}
            </span>
            {sceneId !== null && (
              <span class="push-right">
                <ConfirmButton
                  question={`Delete ${name} for good?`}
                  confirmLabel="Delete scene"
                  onConfirm={() => void remove()}
                >
                  Delete scene…
                </ConfirmButton>
              </span>
            )}
          </div>
        )}
        <Problem error={actionError} />
      </aside>
    </div>
  );
}

function SceneForm({
  name,
  definition,
  errors,
  locked,
  onName,
  onChange,
}: {
  name: string;
  definition: Obj;
  errors: readonly FieldError[];
  locked: boolean;
  onName: (name: string) => void;
  onChange: (definition: Obj) => void;
}) {
  const sections = { definition, errors, onChange };
  return (
    <fieldset class="plain scene-form" disabled={locked} aria-label="Scene">
      {locked && <p class="hint">Fix the JSON view first: the form edits the last definition that parsed.</p>}
      <section class="editor-section" aria-labelledby="scene-title">
        <h2 id="scene-title">Scene</h2>
        <div class="field-grid">
          <div class="wide">
            <TextField errors={errors} label="Scene name" path="name" value={name} onChange={(v) => onName(v ?? '')} />
          </div>
          <NumberField
            errors={errors}
            label="Layer (0–99)"
            path="definition.layer"
            value={definition.layer}
            step={1}
            hint="Higher layers draw above lower ones"
            onChange={(layer) => onChange(withKey(definition, 'layer', layer))}
          />
        </div>
      </section>
      <InputsSection {...sections} />
      <ElementsSection {...sections} />
      <TransitionsSection {...sections} />
      <TriggersSection {...sections} />
    </fieldset>
  );
}

/**
 * The workspace's imported OGraf graphics (docs/ograf.md), on the assets page: upload a zipped package, list the
 * graphics with their steps, inputs and custom actions, delete one (refused while a scene uses it), and add a scene
 * drawn by one to a channel.
 */
import { useState } from 'preact/hooks';
import { listChannels, type Channel } from '../channels-api.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { can } from '../session.js';
import { deleteGraphic, listGraphics, sceneFromGraphic, uploadGraphic, type Graphic } from './graphics-api.js';

export function GraphicsSection() {
  const { data, error, reload } = useLoad(listGraphics, []);
  const channels = useLoad(listChannels, []);
  const [actionError, setActionError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<string | null>) => {
    setBusy(true);
    try {
      setNote(await work());
      setActionError(null);
    } catch (err) {
      setActionError(err);
      setNote(null);
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const upload = (files: FileList | null) =>
    act(async () => {
      const warnings: string[] = [];
      for (const file of Array.from(files ?? [])) warnings.push(...(await uploadGraphic(file)).warnings);
      return warnings.length > 0 ? warnings.join(' ') : null;
    });
  const writable = can('channels:write');
  return (
    <section aria-labelledby="graphics-heading" class="graphics-section">
      <h2 id="graphics-heading">OGraf graphics</h2>
      <p class="hint">
        EBU OGraf graphics, imported from a zip (one graphic per *.ograf.json in it) and played as scenes: their data
        fields are the scene's inputs, their custom actions its triggers, and Continue walks their steps.
      </p>
      <Problem error={error ?? actionError} />
      {note && <p class="hint">{note}</p>}
      {writable && (
        <label class="button">
          {busy ? 'Importing…' : 'Import a graphic (.zip)'}
          <input
            type="file"
            class="visually-hidden"
            accept=".zip,application/zip"
            disabled={busy}
            onChange={(e) => void upload(e.currentTarget.files)}
          />
        </label>
      )}
      {data && data.length === 0 && <p class="hint">No graphics yet.</p>}
      {data && data.length > 0 && (
        <ul class="graphic-list" aria-label="OGraf graphics">
          {data.map((g) => (
            <GraphicRow
              key={g.id}
              graphic={g}
              channels={channels.data ?? []}
              writable={writable}
              onDelete={() => act(async () => (await deleteGraphic(g.id), null))}
              onScene={(channelId, layer) =>
                act(async () => (await sceneFromGraphic(channelId, g, layer), `Scene "${g.name}" added.`))
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface RowProps {
  graphic: Graphic;
  channels: Channel[];
  writable: boolean;
  onDelete: () => Promise<void>;
  onScene: (channelId: string, layer: number) => Promise<void>;
}

function GraphicRow({ graphic: g, channels, writable, onDelete, onScene }: RowProps) {
  const [channelId, setChannelId] = useState('');
  const [layer, setLayer] = useState(0);
  const steps = g.stepCount < 0 ? 'steps: open' : `steps: ${g.stepCount}`;
  return (
    <li class="graphic-card" data-graphic={g.id}>
      <strong>{g.name}</strong>{' '}
      <code class="small">
        {g.graphicId}
        {g.version ? `@${g.version}` : ''}
      </code>
      <span class="hint small">
        {' '}
        · {steps} · {g.inputs.length} inputs · {g.triggers.map((t) => t.name).join(', ') || 'no custom actions'}
      </span>
      {writable && (
        <span class="graphic-actions">
          <select
            aria-label={`Channel for ${g.name}`}
            value={channelId}
            onChange={(e) => setChannelId(e.currentTarget.value)}
          >
            <option value="">Channel…</option>
            {channels.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <input
            type="number"
            min={0}
            max={99}
            aria-label={`Layer for ${g.name}`}
            value={layer}
            onInput={(e) => setLayer(Number(e.currentTarget.value))}
          />
          <button type="button" disabled={channelId === ''} onClick={() => void onScene(channelId, layer)}>
            New scene from graphic
          </button>
          <ConfirmButton question={`Delete ${g.name}?`} confirmLabel="Delete" onConfirm={onDelete}>
            Delete
          </ConfirmButton>
        </span>
      )}
    </li>
  );
}

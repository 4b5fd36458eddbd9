/**
 * The workspace's asset library (docs/assets.md): images and fonts with thumbnails, uploaded by drag and drop or a
 * file picker, deleted (a file a scene uses is refused, and the message names the scenes).
 */
import { useState } from 'preact/hooks';
import './assets.css';
import { ConfirmButton } from '../components/confirm-button.js';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { can } from '../session.js';
import { libraryFontCss } from './asset-font.js';
import { deleteAsset, listAssets, uploadAsset, type Asset } from './assets-api.js';
import { GraphicsSection } from './graphics-section.js';

export function AssetsPage() {
  const { data, error, reload } = useLoad(listAssets, []);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    try {
      for (const file of Array.from(files)) await uploadAsset(file);
      setActionError(null);
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const remove = async (asset: Asset) => {
    try {
      await deleteAsset(asset.id);
      setActionError(null);
      await reload();
    } catch (err) {
      setActionError(err);
    }
  };
  const writable = can('channels:write');
  return (
    <main id="main" class="page">
      <h1>Assets</h1>
      <p class="hint">
        Images (PNG, JPEG, GIF, WebP, SVG) and WOFF2 fonts for this workspace's scenes, kept with its data and drawn by
        output pages from this server. Pick an image for an asset input with its Library… button, and a font in the
        scene editor's Font field (or put the path in an element's fontFamily).
      </p>
      <Problem error={error ?? actionError} />
      {writable && <DropZone busy={busy} onFiles={(files) => void upload(files)} />}
      {!data && !error && <p class="loading">Loading assets…</p>}
      {data && data.length === 0 && <p class="hint">No assets yet.</p>}
      {data && data.length > 0 && (
        <ul class="asset-grid" aria-label="Assets">
          {data.map((asset) => (
            <li key={asset.id} class="asset-card" data-asset={asset.id}>
              <Thumbnail asset={asset} />
              <span class="asset-name" title={asset.name}>
                {asset.name}
              </span>
              <span class="hint small">
                {asset.type} · {formatBytes(asset.bytes)}
                {asset.width !== null && asset.height !== null ? ` · ${asset.width}×${asset.height}` : ''}
              </span>
              <code class="small" title={asset.kind === 'font' ? 'fontFamily' : 'URL'}>
                {asset.kind === 'font' ? asset.path : asset.url}
              </code>
              {writable && (
                <ConfirmButton question={`Delete ${asset.name}?`} confirmLabel="Delete" onConfirm={() => remove(asset)}>
                  Delete
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <GraphicsSection />
    </main>
  );
}

function DropZone({ busy, onFiles }: { busy: boolean; onFiles: (files: FileList | null) => void }) {
  const [over, setOver] = useState(false);
  return (
    <div
      class={over ? 'drop-zone over' : 'drop-zone'}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onFiles(e.dataTransfer?.files ?? null);
      }}
    >
      <p>{busy ? 'Uploading…' : 'Drop images or fonts here, or'}</p>
      <label class="button">
        Choose files
        <input
          type="file"
          class="visually-hidden"
          multiple
          accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml,font/woff2,.woff2"
          disabled={busy}
          onChange={(e) => onFiles(e.currentTarget.files)}
        />
      </label>
    </div>
  );
}

export function Thumbnail({ asset }: { asset: Asset }) {
  if (asset.kind === 'font')
    return (
      <span class="asset-thumb font" style={{ fontFamily: libraryFontCss(asset) }} aria-label={`${asset.name}: a font`}>
        Aa Bb 123
      </span>
    );
  return <img class="asset-thumb" src={asset.path} alt="" loading="lazy" />;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

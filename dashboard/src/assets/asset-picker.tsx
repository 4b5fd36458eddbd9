/**
 * Picks an image of the asset library for an `image` or `asset` input: a button that opens the workspace's images and
 * hands the chosen one to `onPick`.
 */
import { useState } from 'preact/hooks';
import { Problem } from '../components/problem.js';
import { listAssets, type Asset } from './assets-api.js';
import { Thumbnail } from './assets-page.js';

export function AssetPicker({ disabled, onPick }: { disabled?: boolean; onPick: (asset: Asset) => void }) {
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const open = async () => {
    try {
      setAssets((await listAssets()).filter((a) => a.kind === 'image'));
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  if (assets === null)
    return (
      <>
        <button type="button" class="quiet" disabled={disabled} onClick={() => void open()}>
          Library…
        </button>
        <Problem error={error} />
      </>
    );
  return (
    <div class="asset-picker" role="group" aria-label="Pick an asset">
      {assets.length === 0 && <p class="hint small">No images in the library: upload some on the Assets page.</p>}
      {assets.map((asset) => (
        <button
          key={asset.id}
          type="button"
          class="asset-choice"
          title={asset.name}
          onClick={() => {
            onPick(asset);
            setAssets(null);
          }}
        >
          <Thumbnail asset={asset} />
          <span class="small">{asset.name}</span>
        </button>
      ))}
      <button type="button" class="quiet" onClick={() => setAssets(null)}>
        Cancel
      </button>
    </div>
  );
}

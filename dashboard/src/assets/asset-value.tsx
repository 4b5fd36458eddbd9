/**
 * The control of an `asset` input (docs/assets.md, "Asset inputs"): a thumbnail of the image it holds, **Library…**
 * to pick another from the workspace's images, and **Clear**. No text field: the input takes only a file of the
 * library, which the server checks.
 */
import { assetRef, type InputValue } from '@onair/protocol';
import { AssetPicker } from './asset-picker.js';

export function AssetValue({
  label,
  value,
  fallback,
  disabled,
  readOnly,
  onChange,
}: {
  label: string;
  /** What the input holds (null: nothing of its own). */
  value: InputValue | undefined;
  /** What is drawn while it holds nothing: the scene's default, or the channel's value for an item. */
  fallback?: InputValue | undefined;
  disabled?: boolean;
  readOnly?: boolean;
  /** The chosen asset's path, or null to clear. */
  onChange: (value: string | null) => void;
}) {
  const own = typeof value === 'string' && value !== '';
  const shown = own ? value : fallback;
  return (
    <div class="control asset-value" role="group" aria-label={label}>
      <span aria-hidden="true">{label}</span>
      <div class="row">
        <AssetThumb value={shown} dimmed={!own} />
        {!readOnly && <AssetPicker disabled={disabled} onPick={(asset) => onChange(asset.path)} />}
        {!readOnly && own && (
          <button type="button" class="quiet" disabled={disabled} onClick={() => onChange(null)}>
            Clear
          </button>
        )}
      </div>
    </div>
  );
}

/** The image an asset value names, loaded from this server (the dashboard's session may read it); or "none". */
export function AssetThumb({ value, dimmed }: { value: InputValue | undefined; dimmed?: boolean }) {
  const ref = typeof value === 'string' ? assetRef(value) : null;
  if (!ref) return <span class="asset-thumb small-thumb none">none</span>;
  return (
    <img
      class={dimmed ? 'asset-thumb small-thumb dimmed' : 'asset-thumb small-thumb'}
      src={ref.path}
      alt=""
      title={ref.path}
    />
  );
}

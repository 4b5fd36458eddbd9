import { useState } from 'preact/hooks';

/** A value to paste elsewhere (an output URL), read-only, with a copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = 'copy-' + label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="row">
        <input id={id} class="mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => (document.getElementById(id) as HTMLInputElement | null)?.select(),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

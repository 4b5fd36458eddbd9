import { useId, useState } from 'preact/hooks';

/**
 * A secret the server shows only once (an API key, a webhook signing secret, an incoming hook URL): shown in
 * full with a copy button and a plain warning that it will not be shown again.
 */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone?: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Clipboard refused (an http:// page on another host): the text is selected for a manual copy.
      const field = document.getElementById(id) as HTMLInputElement | null;
      field?.select();
    }
  };
  return (
    <div class="secret-once" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it is shown only this once.
      </p>
      <div class="row">
        <input
          id={id}
          class="mono"
          readOnly
          value={value}
          aria-label={label}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        {onDone && (
          <button type="button" class="quiet" onClick={onDone}>
            Done
          </button>
        )}
      </div>
    </div>
  );
}

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A destructive action asks once more, in place (no browser dialog), and says what it will do. */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  label,
  small = false,
}: {
  children: ComponentChildren;
  /** The trigger's accessible name, when its text is a symbol. */
  label?: string;
  /** A compact trigger (an icon in a list row). */
  small?: boolean;
  question: string;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class={small ? 'danger icon' : 'danger'} aria-label={label} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  return (
    <span
      class="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => {
        // Esc takes the question back (and is not the live view's "stop" key while it is asked).
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        setAsking(false);
      }}
    >
      <span>{question}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          void onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class="quiet" onClick={() => setAsking(false)} autoFocus>
        Cancel
      </button>
    </span>
  );
}

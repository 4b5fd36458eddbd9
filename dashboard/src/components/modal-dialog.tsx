import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';

/** How many modal dialogs are open: the live view's shortcuts stand still while one is. */
export const openDialogs = signal(0);

/**
 * A modal dialog (the browser's own `<dialog>`, shown with showModal: focus stays inside, the page behind is inert,
 * Esc closes it). Mounted open; `onClose` runs however it is closed (Esc, a button), once.
 */
export function ModalDialog({
  title,
  role = 'dialog',
  onClose,
  children,
  class: className = '',
}: {
  title: string;
  role?: 'dialog' | 'alertdialog';
  onClose: () => void;
  children: ComponentChildren;
  class?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const mounted = useRef(true);
  const close = () => {
    if (mounted.current) closeRef.current();
  };
  // A layout effect, not useEffect: Preact 11 runs a passive effect's cleanup after the next paint, so a key pressed
  // just after the dialog left the page would still find it counted as open (and be dropped).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    openDialogs.value += 1;
    return () => {
      mounted.current = false;
      openDialogs.value -= 1;
      if (dialog.open) dialog.close();
    };
  }, []);
  const titleId = `dialog-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog
      ref={ref}
      class={`modal ${className}`}
      role={role}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClose={close}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

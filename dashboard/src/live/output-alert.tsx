/**
 * The live view's alert line for what went wrong with the outputs (docs/dashboard.md, "Outputs"): shown at once when
 * an `outputs` message brings an output gone, lagging or failing, or the event feed brings `channel.unconfirmed`,
 * until the operator dismisses it. The newest alert wins; how many came is counted.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { OutputsMessage } from '@onair/protocol';
import { outputAlerts } from './output-labels.js';

export interface AlertLine {
  text: string;
  count: number;
  at: number;
}

/** The alert line and a way to raise one from elsewhere (the event feed). */
export function useOutputAlert(outputs: OutputsMessage | null): {
  alert: AlertLine | null;
  raise: (texts: string[]) => void;
  dismiss: () => void;
} {
  const [alert, setAlert] = useState<AlertLine | null>(null);
  const last = useRef<OutputsMessage | null>(null);
  const raise = (texts: string[]) => {
    if (texts.length === 0) return;
    setAlert((old) => ({ text: texts[texts.length - 1]!, count: (old?.count ?? 0) + texts.length, at: Date.now() }));
  };
  useEffect(() => {
    // null: a new connection, whose first message is compared with nothing (no output reported lost by a reconnect).
    if (outputs) raise(outputAlerts(last.current, outputs));
    last.current = outputs;
  }, [outputs]);
  return { alert, raise, dismiss: () => setAlert(null) };
}

export function OutputAlert({ alert, dismiss }: { alert: AlertLine | null; dismiss: () => void }) {
  return (
    <div class="output-alert-slot" role="alert">
      {alert && (
        <p class="output-alert">
          <span title={alert.text}>
            {alert.text}
            {alert.count > 1 && ` (${alert.count} alerts)`} at {new Date(alert.at).toLocaleTimeString()}
          </span>
          <button type="button" class="link" onClick={dismiss}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  );
}

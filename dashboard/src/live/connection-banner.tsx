import { useEffect, useRef, useState } from 'preact/hooks';
import type { LineStatus } from './live-socket.js';

/**
 * Says at once when the live line is down (nothing is sent until it is back), and briefly that it is back
 * and resynced. role=alert: a screen reader announces it too.
 */
export function ConnectionBanner({ status, ended }: { status: LineStatus; ended: string | null }) {
  // Noted as the line is drawn down, not in an effect: effects run after a paint, and a line back before that paint
  // would find "was down" not yet set (and never say it is back).
  const wasDown = useRef(false);
  if (status === 'down') wasDown.current = true;
  const [showBack, setShowBack] = useState(false);
  useEffect(() => {
    if (status !== 'open' || !wasDown.current) return undefined;
    wasDown.current = false;
    setShowBack(true);
    const t = setTimeout(() => setShowBack(false), 3000);
    return () => clearTimeout(t);
  }, [status]);
  if (status === 'ended')
    return (
      <div class="banner down" role="alert">
        {ended ?? 'The live connection has ended.'}
      </div>
    );
  if (status === 'down')
    return (
      <div class="banner down" role="alert" data-banner="down">
        Connection to the server lost — reconnecting… Nothing you click is sent until it is back.
      </div>
    );
  if (showBack)
    return (
      <div class="banner back" role="status">
        Back online: the view is in sync with what is on air.
      </div>
    );
  return null;
}

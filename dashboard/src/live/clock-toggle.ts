/**
 * Start / stop of a clock from one key (S). The second press stops the clock the first one started even when the
 * frame that shows it running has not reached this page yet (a busy line or machine): until the page's state has
 * caught up with the frame that applied this page's last start or stop, that command says whether the clock runs.
 */
import type { LiveChannel } from './live-socket.js';

interface Sent {
  running: boolean;
  /** The frame that applied it; Infinity until the server's answer comes. */
  frame: number;
}

const sentBy = new WeakMap<LiveChannel, Map<string, Sent>>();

export function toggleClock(live: LiveChannel, name: string, label: string): void {
  let sent = sentBy.get(live);
  if (!sent) sentBy.set(live, (sent = new Map<string, Sent>()));
  const state = live.state.value;
  const last = sent.get(name);
  const running = last && state.frame < last.frame ? last.running : state.clocks[name]?.running === true;
  const action = running ? 'stop' : 'start';
  const entry: Sent = { running: !running, frame: Infinity };
  sent.set(name, entry);
  const mine = sent;
  live.send(`${label}: ${action}`, { op: 'clock', name, action }).then(
    (ack) => {
      if (mine.get(name) === entry) entry.frame = ack.frame;
    },
    () => {
      // Refused or lost: the page's state says again whether the clock runs.
      if (mine.get(name) === entry) mine.delete(name);
    },
  );
}

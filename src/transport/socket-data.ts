/** What the render socket keeps per connection (uWS user data): copied at the upgrade, never a uWS object. */
import type { Principal } from '../auth/permissions.js';
import type { Follows } from './socket-auth.js';
import type { SceneScope } from '@onair/protocol';
import type { OutputHandle } from '../outputs/outputs.js';
import type { ErrorBudget } from './error-budget.js';

export interface SocketData {
  principal: Principal;
  /** The connection's channel (`channel=`); for one following several, the first it was opened with ('' for none). */
  channelId: string;
  /** One channel (`channel=`), the channels named (`channels=<ids>`), or every channel it may see (`channels=*`). */
  follows: Follows;
  /** The channels granted at the upgrade, followed at open. */
  opening: readonly string[];
  /** The channels followed now: each one's frames, snapshots and ops. */
  channels: Set<string>;
  /** Which scene definitions it is sent (engine/scene-scope.ts). */
  scenes: SceneScope;
  /** The client's address as the connection limits count it (socket-limits.ts). */
  address: string;
  closed: boolean;
  /** Per-connection id, for per-connection limits. */
  connectionId: number;
  /** The output token it connected with: a rotation closes the connections whose token is no longer the channel's. */
  token?: string | undefined;
  /** A dashboard session's Cookie header, copied at the upgrade: its ops are authorized afresh each time. */
  cookie?: string | undefined;
  /** Bytes of the last snapshot sent, allowed on top of the slow-consumer cap until it has drained below it. */
  snapshotGrace: number;
  /** An output-token connection's output (src/outputs), which its `painted` reports go to. */
  output?: OutputHandle | undefined;
  /** Error replies in the rolling window; made at the connection's first error. */
  errors?: ErrorBudget | undefined;
}

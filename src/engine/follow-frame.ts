/**
 * How a copy of a channel that this engine does not tick follows the frames of the node that ticks it (several
 * nodes: docs/architecture/several-nodes.md, "Routing"): with the frame reducer the output page, the dashboard and
 * the SDK use (the protocol package), so a follower's copy is what any client of the owner would hold. Only
 * ChannelRuntime.followed()/adoptFollowed() sit on either side.
 */
import { applyFrame, type FrameMessage, type LiveState } from '@onair/protocol';

/** A channel as its owner's frames describe it: the shared reducer's state. */
export type FollowedChannel = LiveState;

/**
 * `applied`: the frame follows the state's (its `prev` is the state's frame). `stale`: the state has it already
 * (a frame from before a reload). `gap`: one was missed; the state must be loaded afresh.
 */
export type FollowOutcome = 'applied' | 'stale' | 'gap';

/** The state after `msg`; the same state object unless the outcome is `applied`. */
export function followFrame(
  state: FollowedChannel,
  msg: FrameMessage,
): { state: FollowedChannel; outcome: FollowOutcome } {
  const next = applyFrame(state, msg);
  if (next !== 'gap') return { state: next, outcome: 'applied' };
  // A lower number is a frame already applied, unless the frame rate changed (numbers restart on another scale).
  const stale = msg.frame <= state.frame && msg.fps === undefined;
  return { state, outcome: stale ? 'stale' : 'gap' };
}

/**
 * The rundown ops over the socket (docs/rundowns.md, "Rundowns"): the calls of `client.rundowns` with the same
 * bodies, sent as `rundown.*` ops on the live connection. Creates, edits and focus answer the rundown or the item
 * in their ack; cue, play next and stop answer the frame that applied them, like the bus ops.
 */
import type { ClientOp } from '../generated/protocol.js';
import type { FocusIn, ItemIn, ItemRefIn, ItemUpdate, RundownIn, RundownUpdate } from '../types.js';
import type { LiveAck, LiveItemAck, LiveOpOptions, LiveRundownAck } from './types.js';

type Send = (op: ClientOp, options?: LiveOpOptions) => Promise<LiveAck>;

export class LiveRundowns {
  constructor(private readonly send: Send) {}

  /** `rundown.create`: a new, empty rundown. */
  create(body: RundownIn, options?: LiveOpOptions): Promise<LiveRundownAck> {
    return this.withRundown({ op: 'rundown.create', ...body }, options);
  }

  /** `rundown.rename`: `version` is the one you read (409 `version_conflict` if stale). */
  update(rundownId: string, body: RundownUpdate, options?: LiveOpOptions): Promise<LiveRundownAck> {
    return this.withRundown({ op: 'rundown.rename', rundownId, ...body }, options);
  }

  /** `rundown.delete`: what is on air stays on air. */
  delete(rundownId: string, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'rundown.delete', rundownId }, options);
  }

  /** `rundown.item_add`: a scene with its own `values`, `label`, `notes`, `durationMs`, at `position`. */
  addItem(rundownId: string, body: ItemIn, options?: LiveOpOptions): Promise<LiveItemAck> {
    return this.withItem({ op: 'rundown.item_add', rundownId, ...body }, options);
  }

  /** `rundown.item_edit`: edits or moves an item; `version` is the one you read. */
  updateItem(rundownId: string, itemId: string, body: ItemUpdate, options?: LiveOpOptions): Promise<LiveItemAck> {
    return this.withItem({ op: 'rundown.item_edit', rundownId, itemId, ...body }, options);
  }

  /** `rundown.item_duplicate`: a copy of the item, right after it. */
  duplicateItem(rundownId: string, itemId: string, options?: LiveOpOptions): Promise<LiveItemAck> {
    return this.withItem({ op: 'rundown.item_duplicate', rundownId, itemId }, options);
  }

  /** `rundown.item_delete` */
  deleteItem(rundownId: string, itemId: string, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'rundown.item_delete', rundownId, itemId }, options);
  }

  /** `rundown.focus`: to `{ itemId }`, or `{ move: 'next' | 'previous' | 'first' | 'last' }`. */
  focus(rundownId: string, body: FocusIn, options?: LiveOpOptions): Promise<LiveRundownAck> {
    return this.withRundown({ op: 'rundown.focus', rundownId, ...body }, options);
  }

  /** `rundown.cue`: an item (default: the focused one) into preview, with its values. */
  cue(rundownId: string, body: ItemRefIn = {}, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'rundown.cue', rundownId, ...body }, options);
  }

  /** `rundown.play_next`: cues the next item and takes it to air in one frame; the focus moves on. */
  playNext(rundownId: string, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'rundown.play_next', rundownId }, options);
  }

  /** `rundown.stop`: an item (default: this rundown's items on air) off air. */
  stop(rundownId: string, body: ItemRefIn = {}, options?: LiveOpOptions): Promise<LiveAck> {
    return this.send({ op: 'rundown.stop', rundownId, ...body }, options);
  }

  private async withRundown(op: ClientOp, options?: LiveOpOptions): Promise<LiveRundownAck> {
    return (await this.send(op, options)) as LiveRundownAck;
  }

  private async withItem(op: ClientOp, options?: LiveOpOptions): Promise<LiveItemAck> {
    return (await this.send(op, options)) as LiveItemAck;
  }
}

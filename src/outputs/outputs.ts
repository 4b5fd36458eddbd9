/**
 * What this server's output pages painted (docs/outputs.md): every output-token connection's reports, aggregated per
 * channel in memory and never sent back to the pages. From them: the outputs list (API and `outputs` message), their
 * health, the output events, the alert for what is on program but painted by none of them, and confirmations (an
 * output painted an on-air instance with its `in` done) for whoever listens.
 *
 * Each server holds the outputs connected to it; with several nodes, a channel's outputs are split among them, and each
 * node shares a summary of its own with the others (`peers`, RemoteOutputs), so that every node lists them all. A
 * report is checked against the channel its connection opened: it cannot name another channel, a frame this server
 * never sent (dropped), or a scene that is not on the output's bus (that layer is dropped). Reports over the
 * connection's rate are dropped. What was dropped or clipped is counted (OutputCounters), never answered.
 */
import type { Logger } from 'pino';
import {
  SYSTEM_ACTOR,
  type OutputError,
  type OutputHealth,
  type OutputsMessage,
  type PaintedLayer,
  type RefusedOutputs,
} from '@onair/protocol';
import {
  framePeriodMs,
  frameRate,
  type Engine,
  type OnAir,
  type Origin,
  type OutputEventType,
} from '../engine/index.js';
import { ChangeThrottle } from './change-throttle.js';
import { ChannelOutputs } from './channel-outputs.js';
import { isAhead, lagFrames } from './frame-log.js';
import { OutputCounters, type ReportRejection } from './output-counters.js';
import * as events from './output-events.js';
import { OutputState, type OutputHandle } from './output-state.js';
import { readPaintedReport, type PaintedReport } from './painted-report.js';
import {
  allOutputs,
  emptySummary,
  RemoteOutputs,
  SUMMARY_OUTPUTS,
  worstOutputs,
  type OutputsSummary,
} from './remote-outputs.js';
import { ShareSchedule } from './share-schedule.js';

export type { OutputHandle } from './output-state.js';
export type { OutputsSummary } from './remote-outputs.js';

/** Something on program no output has painted this many frames after it went on air raises `channel.unconfirmed`. */
export const UNCONFIRMED_FRAMES = 150;
/** Health, alerts and expiries are looked at this often. */
const SWEEP_MS = 250;
/** `outputs` messages per channel: at most one in any CHANGED_EVERY_MS, carrying at most MESSAGE_OUTPUTS. */
const CHANGED_EVERY_MS = 500;
const MESSAGE_OUTPUTS = 100;

/**
 * An output painted an instance on air on program, with its `in` transition done: called once per output and
 * instance, the first time (`since`, with the channel and layer, names the instance; `at` is when the report came).
 */
export interface Confirmation {
  channelId: string;
  outputId: string;
  layer: number;
  sceneId: string;
  itemId: string | null;
  since: string;
  frame: number;
  at: string;
}

export interface OutputList {
  data: ReturnType<ChannelOutputs['views']>;
  refused: RefusedOutputs | null;
}

export interface OutputsDeps {
  engine: Pick<Engine, 'has' | 'onAir'>;
  /** Records an output event in the channel's next tick; a rejection is logged. */
  raise: (channelId: string, type: OutputEventType, data: Record<string, unknown>) => Promise<unknown>;
  logger: Logger;
  now?: () => number;
  counters?: OutputCounters;
  /** Several nodes: how this node's summaries reach the others (theirs come back through `heard`). */
  peers?: OutputPeers;
}

export interface OutputPeers {
  nodeId: string;
  share(summary: OutputsSummary): void;
}

/** Output events come from the server itself, watching its outputs. */
const OUTPUT_ORIGIN: Origin = { source: 'output', actor: SYSTEM_ACTOR };

/** OutputsDeps.raise over an engine: the event is recorded by an `event` op in the channel's next tick. */
export function raiseOn(engine: Pick<Engine, 'submit'>): OutputsDeps['raise'] {
  return (channelId, type, data) => engine.submit(channelId, { kind: 'event', type, data, by: OUTPUT_ORIGIN });
}

export class Outputs {
  readonly counters: OutputCounters;
  private readonly channels = new Map<string, ChannelOutputs>();
  private readonly confirmedListeners = new Set<(c: Confirmation) => void>();
  private readonly changes: ChangeThrottle;
  private readonly caps = new events.EventCaps();
  private readonly remote = new RemoteOutputs();
  private readonly shares = new ShareSchedule();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: OutputsDeps) {
    this.counters = deps.counters ?? new OutputCounters();
    this.now = deps.now ?? Date.now;
    this.changes = new ChangeThrottle(CHANGED_EVERY_MS, this.now);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** An output-token connection opened; it becomes a listed output with its first report. */
  open(c: { channelId: string; address: string }): OutputHandle {
    const output = new OutputState(c.channelId, c.address, this.now());
    this.channel(c.channelId).outputs.set(output.id, output);
    return output;
  }

  report(handle: OutputHandle, raw: unknown): void {
    const output = handle as OutputState;
    const ch = this.channels.get(output.channelId);
    if (output.closed || !ch || !this.deps.engine.has(ch.channelId)) return;
    const now = this.now();
    if (!output.admit(now)) return this.reject('flood');
    const read = readPaintedReport(raw);
    if (!read.ok) return this.reject('invalid');
    if (read.clipped) this.reject('clipped');
    const air = this.deps.engine.onAir(ch.channelId);
    if (isAhead(ch.frames, read.report.frame, air.frame)) return this.reject('frame_ahead');
    const report = { ...read.report, layers: this.onBus(read.report, air) };
    const lag = lagFrames(ch.frames, report.frame, { channelFrame: air.frame, fps: air.fps, now });
    const applied = output.apply(report, lag, now);
    this.counters.reports += 1;
    if (applied.first) this.raise(ch, events.connected(output));
    if (applied.newErrors.length > 0) this.raiseError(ch, output, applied.newErrors, now);
    if (report.bus === 'program') this.paintedOnProgram(ch, output, air, report.layers, now);
    if (applied.changed) this.changed(ch.channelId);
  }

  /** A report sent by a key or session connection: refused there, counted here. */
  notOutput(): void {
    this.reject('not_output');
  }

  close(handle: OutputHandle, closeCode: number): void {
    const output = handle as OutputState;
    if (output.closed) return;
    output.closed = true;
    const ch = this.channels.get(output.channelId);
    if (!ch) return;
    ch.outputs.delete(output.id);
    if (output.listed) {
      // A server shutting down raises nothing: its pages reconnect, here after the restart or to another node.
      if (!this.stopped && this.deps.engine.has(ch.channelId)) this.raise(ch, events.lost(output, closeCode));
      this.changed(ch.channelId);
    }
    if (ch.empty()) {
      this.channels.delete(ch.channelId);
      this.changes.forget(ch.channelId);
    }
  }

  /** A frame published for the channel to this server's connections. */
  sent(channelId: string, frame: number): void {
    this.channels.get(channelId)?.frames.sent(frame);
  }

  /** An output page's token was refused for this (existing) channel. */
  refused(channelId: string, address: string): void {
    const ch = this.channel(channelId);
    const first = ch.refused === null;
    ch.refusedOne(address, this.now());
    this.counters.refused += 1;
    if (first)
      this.deps.logger.warn({ channelId, address }, 'an output page with a wrong or rotated token was refused');
    this.changed(channelId);
  }

  /** The channel's outputs on every node (each other node's least healthy SUMMARY_OUTPUTS). */
  list(channelId: string): OutputList {
    return allOutputs(this.channels.get(channelId), [...this.remote.of(channelId).values()]);
  }

  /** The `outputs` message for the channel (empty when it has neither outputs nor refused pages on any node). */
  message(channelId: string): OutputsMessage {
    const remote = [...this.remote.of(channelId).values()];
    return { type: 'outputs', channelId, ...worstOutputs(this.channels.get(channelId), remote, MESSAGE_OUTPUTS) };
  }

  /** Another node's summary of its outputs of a channel (OutputPeers). */
  heard(nodeId: string, summary: OutputsSummary): void {
    if (this.stopped || nodeId === this.deps.peers?.nodeId) return;
    this.remote.put(nodeId, summary, this.now());
    this.changes.changed(summary.channelId);
  }

  /** See Confirmation. A listener that throws is logged; the others are still called. */
  onConfirmed(listener: (c: Confirmation) => void): () => void {
    this.confirmedListeners.add(listener);
    return () => this.confirmedListeners.delete(listener);
  }

  /** The channel's outputs changed: called at most once per CHANGED_EVERY_MS per channel. */
  onChanged(listener: (channelId: string) => void): () => void {
    return this.changes.listen(listener);
  }

  /** Listed outputs by health, over every channel (for metrics). */
  byHealth(): Record<OutputHealth, number> {
    const counts: Record<OutputHealth, number> = { ok: 0, lagging: 0, error: 0 };
    for (const ch of this.channels.values()) for (const o of ch.outputs.values()) if (o.listed) counts[o.health]++;
    return counts;
  }

  /** Stops watching; closing connections after this raises no `output.lost`. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    this.changes.stop();
  }

  private channel(channelId: string): ChannelOutputs {
    let ch = this.channels.get(channelId);
    if (!ch) this.channels.set(channelId, (ch = new ChannelOutputs(channelId)));
    return ch;
  }

  /** The report's layers whose scene (and item) is on the output's bus on that layer. */
  private onBus(report: PaintedReport, air: OnAir): PaintedLayer[] {
    const bus = report.bus === 'preview' ? air.preview : air.program;
    const kept = report.layers.filter((l) =>
      bus.some((e) => e.layer === l.layer && e.sceneId === l.sceneId && e.itemId === l.itemId),
    );
    for (let i = kept.length; i < report.layers.length; i++) this.reject('not_on_bus');
    return kept;
  }

  private paintedOnProgram(ch: ChannelOutputs, o: OutputState, air: OnAir, layers: PaintedLayer[], now: number): void {
    ch.watch.follow(air.program, now, this.unconfirmedMs(air));
    for (const l of layers) {
      const instance = ch.watch.match(l.layer, l.sceneId, l.itemId);
      if (!instance) continue;
      if (!instance.painted) this.changed(ch.channelId);
      instance.painted = true;
      if (l.inDone && o.confirm(l.layer, instance.key)) {
        const { layer, sceneId, itemId, since } = instance;
        const at = new Date(now).toISOString();
        this.confirm({
          channelId: ch.channelId,
          outputId: o.id,
          layer,
          sceneId,
          itemId,
          since,
          frame: o.report!.frame,
          at,
        });
      }
    }
  }

  private confirm(c: Confirmation): void {
    this.counters.confirmations += 1;
    for (const listener of this.confirmedListeners) {
      try {
        listener(c);
      } catch (err) {
        this.deps.logger.error({ err, channelId: c.channelId }, 'a confirmation listener failed');
      }
    }
  }

  /** Health, alerts and expiries: run every SWEEP_MS by itself (public for tests on a manual clock). */
  sweep(): void {
    const now = this.now();
    for (const channelId of this.remote.expire(now)) this.changes.changed(channelId);
    for (const channelId of this.remote.channels()) if (!this.deps.engine.has(channelId)) this.remote.forget(channelId);
    for (const ch of [...this.channels.values()]) {
      if (!this.deps.engine.has(ch.channelId)) {
        this.channels.delete(ch.channelId);
        this.changes.forget(ch.channelId);
        continue;
      }
      let changed = false;
      for (const o of ch.listed()) {
        const health = o.evaluate(now);
        changed ||= health.changed;
        if (health.rose && this.caps.lagging(o, now)) this.raise(ch, events.lagging(o, now));
      }
      if (changed) this.changed(ch.channelId);
      this.checkUnconfirmed(ch, now);
    }
    this.share(now);
  }

  /** This node's summaries that are due, to the other nodes. */
  private share(now: number): void {
    const peers = this.deps.peers;
    if (!peers) return;
    for (const channelId of this.shares.due(now, this.channels.keys())) {
      peers.share(this.channels.get(channelId)?.summary(SUMMARY_OUTPUTS) ?? emptySummary(channelId));
      if (!this.channels.has(channelId)) this.shares.forget(channelId);
    }
  }

  /**
   * What is on program and painted by no program output of any node within UNCONFIRMED_FRAMES. Of the nodes with
   * program outputs, the one with the smallest id raises it (each of them watches).
   */
  private checkUnconfirmed(ch: ChannelOutputs, now: number): void {
    const here = ch.programOutputs();
    if (here === 0) return ch.watch.pause();
    const air = this.deps.engine.onAir(ch.channelId);
    ch.watch.follow(air.program, now, this.unconfirmedMs(air));
    const elsewhere = this.remote.programElsewhere(ch.channelId, this.deps.peers?.nodeId ?? '');
    const outputs = here + elsewhere.outputs;
    for (const instance of ch.watch.overdue(now, elsewhere.painted))
      if (!elsewhere.judgedThere) this.raise(ch, events.unconfirmed(instance, UNCONFIRMED_FRAMES, outputs));
  }

  private unconfirmedMs(air: OnAir): number {
    return UNCONFIRMED_FRAMES * framePeriodMs(frameRate(air.fps));
  }

  private raiseError(ch: ChannelOutputs, o: OutputState, errors: OutputError[], now: number): void {
    if (this.caps.error(o, now)) this.raise(ch, events.failed(o, errors));
    else this.counters.suppressed += 1;
  }

  private raise(ch: ChannelOutputs, event: events.RaisedEvent): void {
    if (this.stopped) return;
    this.counters.events[event.type] += 1;
    this.deps.raise(ch.channelId, event.type, event.data).catch((err: unknown) => {
      this.deps.logger.warn(
        { err, channelId: ch.channelId, type: event.type },
        'an output event could not be recorded',
      );
    });
  }

  private reject(reason: ReportRejection): void {
    this.counters.rejected[reason] += 1;
  }

  /** This node's outputs of the channel changed: its listeners and the other nodes are told. */
  private changed(channelId: string): void {
    this.changes.changed(channelId);
    this.shares.changed(channelId);
  }
}

/**
 * The onair connection for Bitfocus Companion: its default export is the instance class Companion constructs, and
 * `UpgradeScripts` its upgrade scripts. One WebSocket follows every chosen channel; actions are ops on it (REST while
 * it is down); feedbacks and variables are redone from what each message changed.
 */
import {
  InstanceBase,
  InstanceStatus,
  type InstanceTypes,
  type SomeCompanionConfigField,
} from '@companion-module/base';
import { actionDefinitions } from './actions.js';
import { choicesOf, type Choices } from './choices.js';
import { configFields, endpointOf, type OnairConfig, type OnairSecrets } from './config.js';
import { FEEDBACKS_BY_KIND, feedbackDefinitions } from './feedbacks.js';
import { LiveChannels, type Kind } from './live-channels.js';
import type { ModuleApi } from './module-api.js';
import { runOp, type Op } from './ops.js';
import { presetDefinitions } from './presets.js';
import { RestClient } from './rest-client.js';
import { OnairSocket, type LinkState } from './socket-client.js';
import { UpgradeScripts } from './upgrades.js';
import { channelPrefixes, clockValues, variableDefinitions, variableValues, type Values } from './variables.js';

export { UpgradeScripts };

type Schema = {
  config: OnairConfig;
  secrets: OnairSecrets;
  actions: InstanceTypes['actions'];
  feedbacks: InstanceTypes['feedbacks'];
  variables: Values;
};

/** Definitions (choices, variables, presets) are redone at most this often while scenes or rundowns are edited. */
const DEFINITIONS_DEBOUNCE_MS = 250;
/** Clocks are redrawn locally this often: a `m:ss` changes within a quarter of a second of the server's. */
const CLOCK_TICK_MS = 250;
const DEFINITION_KINDS: ReadonlySet<Kind> = new Set(['scenes', 'rundowns', 'channels', 'sources']);

export default class OnairInstance extends InstanceBase<Schema> implements ModuleApi {
  readonly live = new LiveChannels();
  #socket: OnairSocket | null = null;
  #rest: RestClient | null = null;
  #link: LinkState = { kind: 'connecting' };
  #choices: Choices = choicesOf(this.live);
  #signature = '';
  #defined = new Set<string>();
  #values: Values = {};
  #definitionsTimer: NodeJS.Timeout | null = null;
  #clockTimer: NodeJS.Timeout | null = null;

  get connected(): boolean {
    return this.#link.kind === 'open';
  }

  async init(config: OnairConfig, _isFirstInit: boolean, secrets: OnairSecrets): Promise<void> {
    this.#redefine(true);
    this.#start(config, secrets);
  }

  async configUpdated(config: OnairConfig, secrets: OnairSecrets): Promise<void> {
    this.#stop();
    this.live.clear();
    this.#redefine(true);
    this.#start(config, secrets);
  }

  async destroy(): Promise<void> {
    this.#stop();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }

  choices(): Choices {
    return this.#choices;
  }

  async run(channelId: string, op: Op): Promise<void> {
    if (!this.#rest) throw new Error('Not configured');
    try {
      await runOp(this.#socket, this.#rest, channelId, op);
    } catch (err) {
      this.log('warn', `${op.op} on ${channelId} failed: ${(err as Error).message}`);
      throw err;
    }
  }

  #start(config: OnairConfig, secrets: OnairSecrets): void {
    const endpoint = endpointOf(config, secrets);
    if (!endpoint) {
      this.updateStatus(InstanceStatus.BadConfig, 'Set the server address, port and API key');
      return;
    }
    this.#rest = new RestClient(endpoint.httpBase, endpoint.key);
    this.#socket = new OnairSocket(endpoint.wsUrl, endpoint.key, {
      state: (state) => this.#onLink(state),
      message: (msg) => {
        const applied = this.live.apply(msg);
        if (applied.resync) this.#socket?.sendRaw({ op: 'resync', channelId: applied.resync });
        if (msg.type === 'snapshot' && !this.live.hasName(msg.channelId)) void this.#loadNames();
        this.#changed(applied.kinds);
      },
    });
    this.#socket.start();
    this.#clockTimer = setInterval(() => this.#tickClocks(), CLOCK_TICK_MS);
  }

  #stop(): void {
    this.#socket?.stop();
    this.#socket = null;
    this.#rest = null;
    for (const timer of [this.#definitionsTimer, this.#clockTimer]) if (timer) clearTimeout(timer);
    this.#definitionsTimer = this.#clockTimer = null;
    this.#link = { kind: 'connecting' };
  }

  #onLink(state: LinkState): void {
    const was = this.connected;
    this.#link = state;
    if (state.kind === 'open') this.updateStatus(InstanceStatus.Ok);
    else if (state.kind === 'connecting') this.updateStatus(InstanceStatus.Connecting);
    else if (state.kind === 'unauthorized')
      this.updateStatus(InstanceStatus.AuthenticationFailure, `The server refused the API key (${state.detail})`);
    else if (state.kind === 'refused')
      this.updateStatus(
        InstanceStatus.BadConfig,
        `The server refused the connection (${state.detail}): check the channels and the key's permissions`,
      );
    else this.updateStatus(InstanceStatus.ConnectionFailure, `Cannot reach the server (${state.detail}); retrying`);
    if (state.kind === 'open') {
      this.live.forgetSources();
      void this.#loadNames();
    }
    if (was !== this.connected) {
      this.#updateValues();
      this.checkFeedbacks('connection_lost');
    }
  }

  async #loadNames(): Promise<void> {
    try {
      const mark = this.live.mark();
      const channels = await this.#rest!.channels();
      if (this.live.setNames(new Map(channels.map((c) => [c.id, c.name])), mark)) this.#changed(new Set(['channels']));
    } catch (err) {
      this.log('debug', `Reading channel names failed: ${(err as Error).message}`);
    }
  }

  /** What a message changed: the feedbacks that read it, the variables, and (debounced) the definitions. */
  #changed(kinds: Set<Kind>): void {
    if (kinds.size === 0) return;
    if ([...kinds].some((k) => DEFINITION_KINDS.has(k))) this.#scheduleRedefine();
    this.#updateValues();
    const ids = new Set<string>();
    for (const kind of kinds) for (const id of FEEDBACKS_BY_KIND[kind]) ids.add(id);
    if (ids.size > 0) {
      const [first, ...rest] = [...ids];
      this.checkFeedbacks(first!, ...rest);
    }
  }

  #scheduleRedefine(): void {
    if (this.#definitionsTimer) return;
    this.#definitionsTimer = setTimeout(() => {
      this.#definitionsTimer = null;
      this.#redefine(false);
    }, DEFINITIONS_DEBOUNCE_MS);
  }

  /** Sends the definitions again when what they list changed (dropdown choices, variables, presets). */
  #redefine(force: boolean): void {
    this.#choices = choicesOf(this.live);
    const variables = variableDefinitions(this.live);
    const presets = presetDefinitions(this.live, this.label);
    const signature = JSON.stringify([this.#choices, variables, presets]);
    if (!force && signature === this.#signature) return;
    this.#signature = signature;
    this.setActionDefinitions(actionDefinitions(this));
    this.setFeedbackDefinitions(feedbackDefinitions(this));
    this.setVariableDefinitions(variables);
    this.setPresetDefinitions(presets.sections, presets.presets);
    this.#defined = new Set(Object.keys(variables));
    this.#values = {};
    this.#updateValues();
    this.checkAllFeedbacks();
  }

  #updateValues(): void {
    this.#send(variableValues(this.live, this.connected, Date.now()));
  }

  #tickClocks(): void {
    const prefixes = channelPrefixes(this.live);
    const values: Values = {};
    for (const channel of this.live.list()) {
      if (Object.values(channel.state.clocks).some((c) => c.running)) {
        Object.assign(values, clockValues(channel, prefixes.get(channel.id)!, Date.now()));
      }
    }
    if (this.#send(values)) this.checkFeedbacks('clock_running');
  }

  /** Sends the values that changed among those defined; answers whether any did. */
  #send(values: Values): boolean {
    const changed: Values = {};
    let any = false;
    for (const [id, value] of Object.entries(values)) {
      if (this.#values[id] === value || !this.#defined.has(id)) continue;
      this.#values[id] = value;
      changed[id] = value;
      any = true;
    }
    if (any) this.setVariableValues(changed);
    return any;
  }
}

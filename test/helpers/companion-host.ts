/**
 * A stand-in for Bitfocus Companion's side of a connection module (@companion-module/base 2.0's `InstanceContext`):
 * it loads the BUILT package (companion/pkg/…, what `npm run build:companion` makes), checks its manifest with the
 * base's own validator, runs its upgrade scripts, constructs its default export with a context, and calls `init`,
 * `configUpdated` and `destroy` as Companion's module host does. It records what the module tells Companion
 * (status, definitions, variable values, presets, logs) and plays Companion's part for placed actions and feedbacks:
 * option values are filled from the definition's defaults, `$(connection:variable)` is parsed in text fields that ask
 * for it (`useVariables`) and in expression-mode options, and feedbacks are evaluated when the module asks for their
 * kind to be checked (or when a variable their options read changes), with `isInverted` applied to booleans.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { validateManifest, type ModuleManifest } from '@companion-module/base/manifest';
import type {
  CompanionActionDefinition,
  CompanionFeedbackDefinition,
  CompanionInputFieldBase,
  CompanionOptionValues,
  CompanionPresetDefinitions,
  CompanionPresetSection,
  CompanionStaticUpgradeScript,
  InstanceBase,
  InstanceStatus,
  JsonObject,
  JsonValue,
  SomeCompanionConfigField,
} from '@companion-module/base';
import type { InstanceContext } from '@companion-module/base/host-api';

export const PACKAGE_DIR = path.resolve(import.meta.dirname, '../../companion/pkg/onair');

type AnyField = CompanionInputFieldBase & { default?: JsonValue; useVariables?: boolean };
/** An option as Companion stores it for a placed action or feedback: a value, or an expression. */
export type StoredOption = JsonValue | { isExpression: true; value: string };

interface PlacedFeedback {
  id: string;
  feedbackId: string;
  options: Record<string, StoredOption>;
  isInverted: boolean;
}

export interface ModuleExports {
  default: new (context: unknown) => InstanceBase;
  UpgradeScripts: CompanionStaticUpgradeScript<JsonObject, JsonObject>[];
}

/** The built module, as Companion loads it: its manifest (validated) and its entry point's exports. */
export async function loadBuiltModule(): Promise<{ manifest: ModuleManifest; exports: ModuleExports }> {
  const manifestPath = path.join(PACKAGE_DIR, 'companion/manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error('companion/pkg is missing: run `npm run build:companion`');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as ModuleManifest;
  validateManifest(manifest, false);
  const entry = path.resolve(path.dirname(manifestPath), manifest.runtime.entrypoint);
  const exports = (await import(pathToFileURL(entry).href)) as ModuleExports;
  return { manifest, exports };
}

export class CompanionHost {
  readonly label = 'onair';
  statuses: { status: InstanceStatus; message: string | null }[] = [];
  actions: Record<string, CompanionActionDefinition> = {};
  feedbacks: Record<string, CompanionFeedbackDefinition> = {};
  variableDefinitions: Record<string, { name: string }> = {};
  variables: Record<string, JsonValue | undefined> = {};
  presetSections: CompanionPresetSection[] = [];
  presets: CompanionPresetDefinitions = {};
  logs: { level: string; message: string }[] = [];
  /** How many times the module sent each kind of definition. */
  definitionCounts = { actions: 0, feedbacks: 0, variables: 0, presets: 0 };
  /** Feedback ids the module asked to be checked, in order (for checking which kinds a change touched). */
  checkedTypes: string[] = [];
  /** Called with each feedback result as it is stored (the benchmark times a take to its feedback with it). */
  onFeedback: ((id: string, value: JsonValue) => void) | null = null;
  #placed = new Map<string, PlacedFeedback>();
  #results = new Map<string, JsonValue>();
  #nextId = 1;
  #savedConfig: JsonObject | null = null;
  instance: InstanceBase | null = null;

  get status(): InstanceStatus | undefined {
    return this.statuses.at(-1)?.status;
  }

  /** Loads the built package and starts an instance with this config and secrets, as Companion does. */
  async start(config: JsonObject, secrets: JsonObject): Promise<void> {
    const { exports } = await loadBuiltModule();
    globalThis.COMPANION_LOGGER = (_source, level, message) => this.logs.push({ level, message });
    let upgraded = { config, secrets };
    for (const script of exports.UpgradeScripts) {
      const result = script({ currentConfig: config }, { config, secrets, actions: [], feedbacks: [] });
      upgraded = {
        config: result.updatedConfig ?? upgraded.config,
        secrets: result.updatedSecrets ?? upgraded.secrets,
      };
    }
    this.instance = new exports.default(this.#context(exports.UpgradeScripts));
    const fields = this.instance.getConfigFields();
    assertSecretFields(fields, upgraded.secrets);
    await this.instance.init(upgraded.config, true, upgraded.secrets);
  }

  async updateConfig(config: JsonObject, secrets: JsonObject): Promise<void> {
    await this.instance!.configUpdated(config, secrets);
  }

  async stop(): Promise<void> {
    await this.instance?.destroy();
    this.instance = null;
    delete globalThis.COMPANION_LOGGER;
  }

  /** Runs an action as a button press does: options filled and parsed, then the module's callback. */
  async runAction(actionId: string, options: Record<string, StoredOption> = {}): Promise<void> {
    const def = this.actions[actionId];
    if (!def) throw new Error(`The module defines no action ${actionId}`);
    const parsed = this.#parseOptions(def.options, options);
    const id = `a${this.#nextId++}`;
    await def.callback(
      { id, controlId: 'bank:1', actionId, options: parsed, surfaceId: undefined },
      { type: 'action', setCustomVariableValue: () => undefined },
    );
  }

  /** Places a feedback on a button: it is evaluated now and whenever the module asks for its kind to be checked. */
  async placeFeedback(
    feedbackId: string,
    options: Record<string, StoredOption> = {},
    isInverted = false,
  ): Promise<string> {
    if (!this.feedbacks[feedbackId]) throw new Error(`The module defines no feedback ${feedbackId}`);
    const id = `f${this.#nextId++}`;
    this.#placed.set(id, { id, feedbackId, options, isInverted });
    await this.#evaluate(this.#placed.get(id)!);
    return id;
  }

  /** The placed feedback's last result (a boolean for a boolean feedback). */
  feedback(id: string): JsonValue | undefined {
    return this.#results.get(id);
  }

  /** Companion's parser for `$(connection:variable)` in text: this connection's variables only. */
  parseVariables(text: string): string {
    return text.replace(/\$\(([a-zA-Z0-9_-]+):([a-zA-Z0-9_.-]+)\)/g, (whole, label: string, name: string) => {
      if (label !== this.label) return whole;
      const value = this.variables[name];
      return value === undefined || value === null
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
    });
  }

  #parseOptions(fields: AnyField[], stored: Record<string, StoredOption>): CompanionOptionValues {
    const out: CompanionOptionValues = {};
    for (const field of fields) {
      const value = field.id in stored ? stored[field.id] : field.default;
      if (isExpression(value)) out[field.id] = this.parseVariables(value.value);
      else if (field.type === 'textinput' && field.useVariables && typeof value === 'string') {
        out[field.id] = this.parseVariables(value);
      } else out[field.id] = value;
    }
    return out;
  }

  async #evaluate(placed: PlacedFeedback): Promise<void> {
    const def = this.feedbacks[placed.feedbackId];
    if (!def) {
      this.#results.delete(placed.id);
      return;
    }
    const options = this.#parseOptions(def.options, placed.options);
    const info = { id: placed.id, controlId: 'bank:1', feedbackId: placed.feedbackId, options, previousOptions: null };
    if (def.type === 'boolean') {
      const value = await def.callback({ ...info, type: 'boolean' }, { type: 'feedback' });
      this.#store(placed.id, placed.isInverted ? !value : value);
    } else if (def.type === 'value') {
      this.#store(placed.id, await def.callback({ ...info, type: 'value' }, { type: 'feedback' }));
    }
  }

  #store(id: string, value: JsonValue): void {
    this.#results.set(id, value);
    this.onFeedback?.(id, value);
  }

  #check(filter: (p: PlacedFeedback) => boolean): void {
    for (const placed of this.#placed.values()) if (filter(placed)) void this.#evaluate(placed);
  }

  #context(upgradeScripts: CompanionStaticUpgradeScript<JsonObject, JsonObject>[]): InstanceContext<never> {
    const context = {
      _isInstanceContext: true as const,
      id: 'connection-onair',
      label: this.label,
      upgradeScripts,
      saveConfig: (config: JsonObject | undefined) => {
        if (config) this.#savedConfig = config;
      },
      updateStatus: (status: InstanceStatus, message: string | null) => this.statuses.push({ status, message }),
      oscSend: () => undefined,
      recordAction: () => undefined,
      setActionDefinitions: (actions: Record<string, CompanionActionDefinition>) => {
        this.actions = actions;
        this.definitionCounts.actions++;
      },
      subscribeActions: () => undefined,
      unsubscribeActions: () => undefined,
      setFeedbackDefinitions: (feedbacks: Record<string, CompanionFeedbackDefinition>) => {
        this.feedbacks = feedbacks;
        this.definitionCounts.feedbacks++;
        // Companion re-checks every placed feedback against new definitions.
        this.#check(() => true);
      },
      unsubscribeFeedbacks: () => undefined,
      checkFeedbacks: (types: string[]) => {
        this.checkedTypes.push(...types);
        this.#check((p) => types.includes(p.feedbackId));
      },
      checkAllFeedbacks: () => this.#check(() => true),
      checkFeedbacksById: (ids: string[]) => this.#check((p) => ids.includes(p.id)),
      setPresetDefinitions: (sections: CompanionPresetSection[], presets: CompanionPresetDefinitions) => {
        this.presetSections = sections;
        this.presets = presets;
        this.definitionCounts.presets++;
      },
      setVariableDefinitions: (defs: Record<string, { name: string }>) => {
        for (const id of Object.keys(defs)) {
          if (!/^[a-zA-Z0-9_.-]+$/.test(id)) throw new Error(`Companion refuses the variable id ${id}`);
        }
        this.variableDefinitions = defs;
        this.definitionCounts.variables++;
      },
      setVariableValues: (values: Record<string, JsonValue | undefined>) => {
        const changed: string[] = [];
        for (const [id, value] of Object.entries(values)) {
          // Companion (without disableVariableValidation) ignores values of variables that are not defined.
          if (!(id in this.variableDefinitions)) {
            this.logs.push({ level: 'warn', message: `value for undefined variable ${id}` });
            continue;
          }
          this.variables[id] = value;
          changed.push(`$(${this.label}:${id})`);
        }
        // Companion re-runs feedbacks whose options read a variable that changed.
        this.#check((p) => changed.some((v) => JSON.stringify(p.options).includes(v)));
      },
      getVariableValue: (id: string) => this.variables[id],
      sharedUdpSocketHandlers: new Map(),
      sharedUdpSocketJoin: () => Promise.reject(new Error('not used')),
      sharedUdpSocketLeave: () => Promise.reject(new Error('not used')),
      sharedUdpSocketSend: () => Promise.reject(new Error('not used')),
    };
    return context as unknown as InstanceContext<never>;
  }

  get savedConfig(): JsonObject | null {
    return this.#savedConfig;
  }
}

function isExpression(value: StoredOption | undefined): value is { isExpression: true; value: string } {
  return typeof value === 'object' && value !== null && (value as { isExpression?: unknown }).isExpression === true;
}

/** Companion keeps `secret-text` fields in the secrets store: each must be there, never in the config. */
function assertSecretFields(fields: SomeCompanionConfigField[], secrets: JsonObject): void {
  for (const field of fields) {
    if (field.type === 'secret-text' && !(field.id in secrets)) throw new Error(`secret ${field.id} not given`);
  }
}

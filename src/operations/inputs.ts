/** Setting input values (docs/api.md, "Inputs and state"). */
import { z } from 'zod';
import { validatePatch } from '../engine/index.js';
import type { InputValue } from '@onair/protocol';
import { assertAssetsHeld, assetValues } from './asset-refs.js';
import { originOf, type ChannelOperation } from './operation.js';

export const MAX_INPUTS_PER_PATCH = 100;

export interface InputsResult {
  channelId: string;
  frame: number;
  inputs: Record<string, InputValue>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The patch object exactly as sent: a parsed copy would turn a `__proto__` key into a prototype instead of
 * a name the input check refuses. Values are checked against the channel's inputs when the patch runs.
 */
export const InputsPatch = z
  .custom<Record<string, unknown>>(isObject, 'The body must be a JSON object of input names to values.')
  .refine((v) => Object.keys(v).length > 0, 'Send at least one input, e.g. {"scoreA": 1}.')
  .refine(
    (v) => Object.keys(v).length <= MAX_INPUTS_PER_PATCH,
    `At most ${MAX_INPUTS_PER_PATCH} inputs per patch, all or nothing.`,
  )
  .meta({
    id: 'InputsPatch',
    type: 'object',
    additionalProperties: {
      anyOf: [
        { type: 'number' },
        { type: 'string' },
        { type: 'boolean' },
        { type: 'null' },
        { type: 'array', description: "A list input's rows.", items: { $ref: '#/components/schemas/ListRow' } },
      ],
    },
    description:
      'Input name → new value; null returns an input to its scene default. At most 100 inputs; all or nothing.',
    example: { scoreA: 3, scoreB: 1 },
  });

export const patchInputs: ChannelOperation<Record<string, unknown>, InputsResult> = {
  name: 'patch',
  scope: 'channel',
  permission: 'inputs:write',
  bucket: 'updates',
  input: InputsPatch,
  async run({ services, channel, caller }, patch) {
    const { engine } = services;
    const registry = engine.registry(channel.id);
    const values = validatePatch(registry, patch);
    await assertAssetsHeld(services, channel.orgId, assetValues(registry, values));
    const result = await engine.submit(channel.id, { kind: 'patch', values, by: originOf(caller) });
    return { channelId: channel.id, frame: result.frame, inputs: result.applied ?? {} };
  },
};

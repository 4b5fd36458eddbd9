/** PATCH …/inputs after authentication: the checks and the engine call, shared by Hono and the fast path. */
import { validatePatch, type Engine } from '../../engine/index.js';
import { AppError } from '../../errors.js';
import type { InputValue } from '../../protocol/index.js';
import { MAX_INPUTS_PER_PATCH } from './schemas.js';

export interface InputsResult {
  channelId: string;
  frame: number;
  inputs: Record<string, InputValue>;
}

/** `raw` is the parsed JSON body as sent: names like "__proto__" must reach the name check as data. */
export async function applyInputsPatch(engine: Engine, channelId: string, raw: unknown): Promise<InputsResult> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError('invalid_request', 'The body must be a JSON object of input names to values.', {
      errors: [{ path: '(body)', message: 'expected an object' }],
    });
  }
  const names = Object.keys(raw);
  if (names.length === 0) throw new AppError('invalid_request', 'Send at least one input, e.g. {"scoreA": 1}.');
  if (names.length > MAX_INPUTS_PER_PATCH) {
    throw new AppError(
      'invalid_request',
      `At most ${MAX_INPUTS_PER_PATCH} inputs per patch; this one has ${names.length}.`,
    );
  }
  const values = validatePatch(engine.registry(channelId), raw as Record<string, unknown>);
  const result = await engine.submit(channelId, { kind: 'patch', values, source: 'api' });
  return { channelId, frame: result.frame, inputs: result.applied ?? {} };
}

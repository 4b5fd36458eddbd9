/** What the scene definition tests share: the 400's `errors` for a definition, and small pieces to build one. */
import { validationError } from '../validation.js';
import { SceneDefinitionIn } from './definition-schema.js';

/** The `errors` a 400 would carry for this definition (none when it is valid). */
export function problems(definition: unknown): { path: string; message: string }[] {
  const result = SceneDefinitionIn.safeParse(definition);
  return result.success ? [] : (validationError(result.error).errors ?? []);
}

export function paths(definition: unknown): string[] {
  return problems(definition).map((e) => e.path);
}

export const box = { x: 0, y: 0, width: 100, height: 50 };
export const text = (more: object = {}) => ({ type: 'text', ...box, text: 'Hi', fontSize: 40, ...more });
export const inputs = [
  { name: 'home', type: 'text' },
  { name: 'scoreA', type: 'number' },
  { name: 'accent', type: 'color' },
  { name: 'logo', type: 'image' },
  { name: 'show', type: 'boolean' },
  { name: 'game', type: 'clock', default: 720_000, direction: 'down' },
];
export const withElements = (...elements: object[]) => ({ inputs, elements });

import type { SceneDefinition } from '../protocol/index.js';

/** A built-in scene a channel can be given in one call (`POST …/scenes { name, template }`). */
export interface Template {
  id: string;
  name: string;
  definition: SceneDefinition;
}

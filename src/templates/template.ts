import type { SceneDefinition } from '@onair/protocol';

/**
 * A built-in scene a channel can be given in one call (`POST …/scenes { name, template }`). Its definition is
 * written out complete, as the API would store it (a test checks it passes the API's validation unchanged).
 */
export interface Template {
  id: string;
  name: string;
  definition: SceneDefinition;
}

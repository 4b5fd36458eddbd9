/**
 * The draft's answer types, from the `ograf` package's Server API typings: each route's answer is checked against
 * its 200 response at compile time (`satisfies Answer<path, method>`).
 */
import type { ServerApi } from 'ograf';

type Paths = ServerApi.paths;
type Method = 'get' | 'post' | 'put' | 'delete';

export type Answer<P extends keyof Paths, M extends Method> = Paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

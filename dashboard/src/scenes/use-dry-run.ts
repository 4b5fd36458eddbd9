/**
 * Validation as the user types: half a second after the last change, the definition goes to the server as a dry
 * run (`POST …/scenes?dryRun=1` for a new scene, `PUT …/scenes/{sceneId}?dryRun=1` for a saved one), which runs
 * every check Save would and saves nothing. Its errors are shown where their paths point; the last version that
 * passed is what the preview draws. An answer that arrives after a newer edit is dropped.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SceneView } from '@onair/protocol';
import { api, ApiError, type FieldError } from '../api.js';
import { scenePath } from './editor-data.js';

export const DRY_RUN_DELAY_MS = 500;

export interface DryRun {
  /** `idle` until the first check; `failed` when the server could not be asked (network, rate limit). */
  status: 'idle' | 'checking' | 'valid' | 'invalid' | 'failed';
  errors: FieldError[];
  /** The problem answered, for its detail when it names no field (a 409 input clash). */
  problem: unknown;
  /** The last version that passed, as the server would save it. */
  valid: SceneView | null;
}

export interface SceneBody {
  name: string;
  definition: unknown;
}

export function useDryRun(
  channelId: string,
  sceneId: string | null,
  /** null: nothing to check (the JSON does not parse, or the user may not write). */
  body: SceneBody | null,
  initialValid: SceneView | null,
): DryRun {
  const [state, setState] = useState<DryRun>({ status: 'idle', errors: [], problem: null, valid: initialValid });
  const latest = useRef(0);
  const key = body === null ? null : JSON.stringify(body);

  useEffect(() => {
    if (key === null) return;
    const ticket = ++latest.current;
    const method = sceneId === null ? 'POST' : 'PUT';
    const path = `${sceneId === null ? scenePath(channelId) : scenePath(channelId, sceneId)}?dryRun=1`;
    setState((s) => ({ ...s, status: 'checking' }));
    const timer = setTimeout(() => {
      void api<SceneView>(method, path, JSON.parse(key)).then(
        (scene) => {
          if (ticket !== latest.current) return;
          const valid = { id: scene.id, name: scene.name, definition: scene.definition };
          setState({ status: 'valid', errors: [], problem: null, valid });
        },
        (err: unknown) => {
          if (ticket !== latest.current) return;
          const refused = err instanceof ApiError && [400, 404, 409, 413].includes(err.status);
          setState((s) => ({
            status: refused ? 'invalid' : 'failed',
            errors: err instanceof ApiError ? err.errors : [],
            problem: err,
            valid: s.valid,
          }));
        },
      );
    }, DRY_RUN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [channelId, sceneId, key]);

  return state;
}

import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';

/** Where a saved scene is on the channel's buses: the layers it is on program and in preview. */
export interface SceneBuses {
  program: number[];
  preview: number[];
}

const POLL_MS = 2000;

/**
 * Whether the scene being edited is on air or cued, read from GET /v1/channels/{id}/state every 2 s while the page
 * is visible (the editor opens no socket). null for a new scene (it cannot be on a bus) and until the first read.
 */
export function useSceneBuses(channelId: string, sceneId: string | null): SceneBuses | null {
  const [buses, setBuses] = useState<SceneBuses | null>(null);
  useEffect(() => {
    setBuses(null);
    if (sceneId === null) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const state = await api<{ program: Entry[]; preview: Entry[] }>(
            'GET',
            `/v1/channels/${encodeURIComponent(channelId)}/state`,
          );
          if (!stopped)
            setBuses({ program: layersOf(state.program, sceneId), preview: layersOf(state.preview, sceneId) });
        } catch {
          // Unknown for now; the next read tries again.
        }
      }
      if (!stopped) timer = setTimeout(() => void read(), POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [channelId, sceneId]);
  return buses;
}

interface Entry {
  sceneId: string;
  layer: number;
}

const layersOf = (entries: Entry[], sceneId: string) =>
  entries.filter((e) => e.sceneId === sceneId).map((e) => e.layer);

import { useCallback, useEffect, useState } from 'preact/hooks';

/** Loads data for a view, with its error, and a reload for after a change. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): {
  data: T | undefined;
  error: unknown;
  reload: () => Promise<void>;
} {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}

import { useCallback, useEffect, useState } from 'react';

/** One call's progress and outcome, for the page that shows them. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      try {
        return await action(...args);
      } catch (caught) {
        setError(caught);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { busy, error, run, clearError: () => setError(null) };
}

/** Data a page loads on arrival and again on `reload()`. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on.
  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    load()
      .then((value) => current && setData(value))
      .catch((caught) => current && setError(caught))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  return { data, error, loading, reload: () => setGeneration((g) => g + 1) };
}

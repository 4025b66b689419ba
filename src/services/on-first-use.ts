/**
 * Imports something once, the first time it is needed, and hands the same
 * promise to every later caller. A failed import (offline, a deploy that
 * replaced the chunk) is forgotten, so the next call tries again instead of
 * failing for the rest of the page's life.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

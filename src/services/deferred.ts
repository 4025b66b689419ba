import { onFirstUse } from './on-first-use.ts';

// The stand-ins that keep a service's code out of the entry bundle: each has its service's shape,
// imports the real one on the first call that needs it and forwards to it. What they share is here;
// each service's file (src/services/*/deferred-service.ts) says only what is particular to it: its
// error for a failed import and the calls that answer, or fail, in their own way.

/** The names of `S`'s calls that answer once, with a promise: those a stand-in forwards as they are. */
export type Requests<S> = {
  [K in keyof S]: S[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof S];

export type Deferred<S> = {
  /**
   * The real service, imported on the first call and shared by every later one. A failed import
   * rejects with what `failure` makes of what it said, in the service's own error shape, and is
   * tried again on the next call.
   */
  service(): Promise<S>;
  /** The service when a call has asked for it and the import succeeded; null otherwise, without importing. */
  ifLoaded(): Promise<S | null>;
  /** Calls that await the service, then call it with the same arguments. */
  forward<K extends Requests<S>>(names: readonly K[]): Pick<S, K>;
  /**
   * A subscription that starts once the service is loaded. The returned function ends it, also
   * before the import lands (then it never starts). `onFailure` hears a subscription that could not
   * start, unless it was ended first: its import failed, or the service threw. Without it a failed
   * import is let go, and a throw is left to surface.
   */
  subscribe(start: (service: S) => () => void, onFailure?: (error: unknown) => void): () => void;
};

export function deferService<S>(options: {
  load: () => Promise<S>;
  /** What a failed import rejects with, given its error's message. */
  failure: (reason: string) => unknown;
  /** Called with the service each time a call gets it (e.g. to attach listeners that waited). */
  onLoaded?: (service: S) => void;
}): Deferred<S> {
  const loadOnce = onFirstUse(options.load);
  let asked: Promise<S> | null = null;
  const service = (): Promise<S> => {
    asked = loadOnce().then(
      (loaded) => {
        options.onLoaded?.(loaded);
        return loaded;
      },
      (error: unknown) => {
        throw options.failure(error instanceof Error ? error.message : String(error));
      },
    );
    return asked;
  };

  function forward<K extends Requests<S>>(names: readonly K[]): Pick<S, K> {
    const call =
      (name: K) =>
      (...args: unknown[]) =>
        service().then((real) => (real[name] as (...params: unknown[]) => Promise<unknown>)(...args));
    return Object.fromEntries(names.map((name) => [name, call(name)])) as Pick<S, K>;
  }

  function subscribe(start: (service: S) => () => void, onFailure?: (error: unknown) => void) {
    let stop: (() => void) | null = null;
    let active = true;
    void service().then(
      (real) => {
        if (!active) return;
        try {
          stop = start(real);
        } catch (error) {
          if (!onFailure) throw error;
          onFailure(error);
        }
      },
      (error: unknown) => {
        if (active) onFailure?.(error);
      },
    );
    return () => {
      active = false;
      stop?.();
    };
  }

  return {
    service,
    ifLoaded: async () => (asked ? asked.catch(() => null) : null),
    forward,
    subscribe,
  };
}

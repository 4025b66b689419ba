import { fromPromise } from 'xstate';

// A promise actor that a test settles by hand: each invocation is recorded
// with its invoke id and input, and the test resolves or rejects it when it
// wants the answer to arrive. Unit tests read the calls in order; the model
// tests (tests/support/model) settle them by invoke id.

export type Call<T, I = unknown> = {
  id: string;
  input: I;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

/**
 * The actor to provide in place of a service call. Typed calls (`Call<T, I>[]`) keep the input's
 * type for assertions; untyped ones (`Call<T>[]`) take any input.
 */
export function deferredActor<T, I>(calls: Call<T, NoInfer<I>>[] | Call<T>[]) {
  return fromPromise<T, I>(
    ({ input, self }) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ id: self.id, input, resolve, reject });
      }),
  );
}

/** The latest call, or a failure saying that `what` was never called. */
export function lastCall<T, I>(calls: Call<T, I>[], what = 'the deferred actor'): Call<T, I> {
  const call = calls.at(-1);
  if (!call) throw new Error(`${what} was not called`);
  return call;
}

/**
 * Takes out the calls of the invocation `id` and returns the latest, the one still running: an
 * invocation started again under the same id replaces the one before it.
 */
export function takeCall<T, I>(calls: Call<T, I>[], id: string): Call<T, I> | undefined {
  let latest: Call<T, I> | undefined;
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const call = calls[index];
    if (call?.id !== id) continue;
    latest ??= call;
    calls.splice(index, 1);
  }
  return latest;
}

/** Lets every settled promise reach the machines (one macrotask). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

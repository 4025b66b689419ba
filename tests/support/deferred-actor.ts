import { fromPromise } from 'xstate';

// A promise actor that a unit test settles by hand: each invocation is recorded
// with its invoke id and input, and the test resolves or rejects it when it
// wants the answer to arrive.

export type Call<T> = {
  id: string;
  input: unknown;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

export function deferredActor<T, I>(calls: Call<T>[]) {
  return fromPromise<T, I>(
    ({ input, self }) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ id: self.id, input, resolve, reject });
      }),
  );
}

/** Lets every settled promise reach the machines (one macrotask). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

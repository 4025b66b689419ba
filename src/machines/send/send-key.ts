// The send form's private key as the send machine holds it (docs/reliability-and-security.md#sends).

/**
 * The private key as the machine holds it and hands it to its actors. XState reports every
 * actor's input through inspection (`xstate.init` events, child snapshots), so the text is kept
 * in a closure: `reveal()` is the only way to it; JSON and string conversions say '[private key]'.
 * The providers in src/app/provide-portal.ts call `reveal()` when they pass the key to the token service.
 */
export type SealedKey = { readonly reveal: () => string; toJSON(): string; toString(): string };

export function sealKey(text: string): SealedKey {
  return Object.freeze({
    reveal: () => text,
    toJSON: () => '[private key]',
    toString: () => '[private key]',
  });
}

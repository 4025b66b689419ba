import { TokenServiceError } from '../../src/services/token/types.ts';

/** The TokenServiceError a token call rejects with; fails the test when it resolves or throws anything else. */
export async function tokenRejection(promise: Promise<unknown>): Promise<TokenServiceError> {
  const outcome = await promise.then(
    () => new Error('expected the call to reject'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof TokenServiceError)) throw outcome;
  return outcome;
}

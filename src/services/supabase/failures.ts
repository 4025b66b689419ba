import { NETWORK_ERROR } from './errors.ts';
import { BackendError } from './types.ts';

// Every supabase-js failure shape, turned into one BackendError that keeps the
// server's own message, code and HTTP status. supabase-js reports a request
// that never got an answer as status 0; that becomes code 'network_error'.
// Only the real service uses these, so they load with supabase-js, not with the page.

type ErrorLike = { message?: unknown; code?: unknown; status?: unknown; name?: unknown };

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function httpStatus(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** PostgREST's `{ message, code }` with the response status (0 when no answer came). */
export function fromPostgrest(error: ErrorLike, status: number): BackendError {
  const answered = httpStatus(status);
  return new BackendError(
    text(error.message) ?? 'The database request failed',
    text(error.code) ?? (answered === null ? NETWORK_ERROR : null),
    answered,
  );
}

/** GoTrue's AuthError: `code` such as invalid_credentials, weak_password, user_already_exists. */
export function fromAuth(error: ErrorLike): BackendError {
  const status = httpStatus(error.status);
  const retryable = error.name === 'AuthRetryableFetchError' && status === null;
  return new BackendError(
    text(error.message) ?? 'The sign-in service failed',
    text(error.code) ?? (retryable ? NETWORK_ERROR : null),
    status,
  );
}

/** StorageApiError (answered) or StorageUnknownError (no usable answer). */
export function fromStorage(error: ErrorLike): BackendError {
  const status = httpStatus(error.status);
  return new BackendError(
    text(error.message) ?? 'The storage request failed',
    text(error.code) ?? (status === null ? NETWORK_ERROR : null),
    status,
  );
}

/** Anything thrown rather than returned (a bug in a library, a throwing fetch): never let it escape raw. */
export function fromThrown(thrown: unknown): BackendError {
  if (thrown instanceof BackendError) return thrown;
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new BackendError(message || 'The backend request failed');
}

const AUTH_JS_PREFIX = /^@supabase\/auth-js:\s*/;

/** What supabase-js threw during Sign in with Ethereum (one of its own checks), without its library prefix. */
export function fromWalletSignIn(thrown: unknown): BackendError {
  const error = fromThrown(thrown);
  return new BackendError(error.message.replace(AUTH_JS_PREFIX, ''), error.code, error.status);
}

import type { BackendErrorCode } from '../../domain/errors.ts';
import { BackendError } from './types.ts';

// The backend's own failure codes, and the failure of a portal without a
// backend. They are needed before supabase-js is (the stand-in services use
// them); turning supabase-js's failures into BackendErrors is failures.ts's,
// which loads with it.

export const NETWORK_ERROR = 'network_error' satisfies BackendErrorCode;
export const CLIENT_UNAVAILABLE = 'client_unavailable' satisfies BackendErrorCode;

/** The portal has no backend configured; the machines word it (the message is for developers). */
export function clientUnavailable(): BackendError {
  return new BackendError('No backend is configured for this portal', CLIENT_UNAVAILABLE);
}

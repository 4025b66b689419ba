// What one Realtime socket may hold, and what it is told past that. The channel limit is hosted
// Realtime's default (TENANT_MAX_CHANNELS_PER_CLIENT, 100) and its refusal reads the same; hosted
// Realtime has no binding limit of its own, but here every binding is matched against every change
// in the one gateway process, so a socket's bindings are bounded too.

export const MAX_CHANNELS_PER_SOCKET = 100;
export const MAX_BINDINGS_PER_SOCKET = 100;

/**
 * Bytes waiting in a socket's send buffer (ws `bufferedAmount`, beyond what the kernel holds) past
 * which the socket is dropped: a client that stops reading costs this much memory, not more.
 */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Frames received and not yet handled past which the socket is not read until they are. */
export const MAX_PENDING_FRAMES = 100;

export const TOO_MANY_CHANNELS = `ChannelRateLimitReached: Too many channels (at most ${MAX_CHANNELS_PER_SOCKET} on one connection)`;

export const TOO_MANY_BINDINGS = `PostgresChangesLimitReached: Too many bindings (at most ${MAX_BINDINGS_PER_SOCKET} postgres_changes on one connection)`;

/** The close a dropped slow socket gets (1008, policy violation), after what was already queued. */
export const SLOW_CONSUMER = {
  code: 1008,
  reason: `Reading too slowly: over ${MAX_BUFFERED_BYTES / 1024 / 1024} MiB waiting to be sent`,
} as const;

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

/**
 * What all sockets together may cost: how many may be open from one address, with one API key and
 * in all, and for how many identities one change is checked against RLS (each check is a
 * transaction on the gateway's one database connection). The key cap is hosted Realtime's
 * concurrent connections on the Pro plan (500); the total leaves as many again for other keys;
 * one address gets at most 200 of them. Every local client is 127.0.0.1, so locally the address
 * cap is the one that counts: it leaves room for `npm run bench:load`'s 100 users.
 */
export type RealtimeLimits = {
  socketsPerAddress: number;
  socketsPerKey: number;
  socketsTotal: number;
  checksPerChange: number;
};

export const DEFAULT_REALTIME_LIMITS: RealtimeLimits = {
  socketsPerAddress: 200,
  socketsPerKey: 500,
  socketsTotal: 1000,
  checksPerChange: 100,
};

/** A socket past one of the caps is accepted and closed at once with this (1008, policy violation). */
export const tooManySockets = (cap: 'address' | 'key' | 'total', limit: number) => ({
  code: 1008,
  reason: `ConnectionRateLimitReached: Too many connections ${
    cap === 'address' ? 'from one address' : cap === 'key' ? 'with one API key' : 'in all'
  } (at most ${limit})`,
});

/** The system message of a channel closed because a change had more identities to check. */
export const checkLimitReached = (limit: number) =>
  `ChangeCheckLimitReached: This change had more subscribers to check than allowed (at most ${limit}); rejoin to receive changes again`;

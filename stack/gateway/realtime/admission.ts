import { tooManySockets, type RealtimeLimits } from './limits.ts';

// The two decisions that bound what all clients together cost the Realtime server, apart from the
// socket plumbing (server.ts): whether one more socket may stay open, and which of a change's
// subscribers are checked against RLS within the change's budget.

export type SocketOrigin = { address: string; apikey: string };

/** The close for a socket that would pass a cap, or null when it may stay; the first cap hit names it. */
export function socketRefusal(
  open: Iterable<SocketOrigin>,
  next: SocketOrigin,
  limits: RealtimeLimits,
): { code: number; reason: string } | null {
  let fromAddress = 0;
  let withKey = 0;
  let total = 0;
  for (const socket of open) {
    total++;
    if (socket.address === next.address) fromAddress++;
    if (socket.apikey === next.apikey) withKey++;
  }
  if (fromAddress >= limits.socketsPerAddress) return tooManySockets('address', limits.socketsPerAddress);
  if (withKey >= limits.socketsPerKey) return tooManySockets('key', limits.socketsPerKey);
  if (total >= limits.socketsTotal) return tooManySockets('total', limits.socketsTotal);
  return null;
}

/**
 * Splits a change's subscribers, grouped by socket, into those checked and those past the budget.
 * The budget counts distinct identities (one check each, however many channels share it); a null
 * key needs no check (the service role). Sockets take turns, one subscriber each per round, so a
 * socket holding many identities spends only what the others leave.
 */
export function shareChecks<T>(
  bySocket: readonly (readonly T[])[],
  identityOf: (subscriber: T) => string | null,
  budget: number,
): { checked: T[]; over: T[] } {
  const checked: T[] = [];
  const over: T[] = [];
  const identities = new Set<string>();
  const rounds = Math.max(0, ...bySocket.map((subscribers) => subscribers.length));
  for (let round = 0; round < rounds; round++) {
    for (const subscribers of bySocket) {
      const subscriber = subscribers[round];
      if (subscriber === undefined) continue;
      const identity = identityOf(subscriber);
      if (identity === null || identities.has(identity)) checked.push(subscriber);
      else if (identities.size < budget) {
        identities.add(identity);
        checked.push(subscriber);
      } else over.push(subscriber);
    }
  }
  return { checked, over };
}

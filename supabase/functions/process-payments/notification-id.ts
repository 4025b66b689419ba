// The id of the notification of one transfer to one user, the same for every delivery of it. A
// transfer that gets no history row (the DDEX leg of the wallet's own swap, see swap-leg.ts) has
// no row whose key stops a second notification, as record_transfer's does: its notification's
// primary key does instead. Tatum's redeliveries, and concurrent ones, all insert this id and
// exactly one insert succeeds. (A notification the user has deleted comes back only if the same
// event is delivered again afterwards, which Tatum does only for a delivery it saw fail.)

/**
 * A UUID (RFC 9562 version 8, name-based on SHA-256) of the user and the transfer: the
 * transaction, the row type (so direction) and the log; a delivery that names no log keys it as
 * the transaction's transfer of that type, as the history does.
 */
export async function notificationId(
  userId: string,
  transfer: { txId: string; logIndex: number | null },
  type: string,
): Promise<string> {
  const name = ['transfer-notification', userId, transfer.txId.toLowerCase(), type, transfer.logIndex ?? '']
    .map(String)
    .join(':');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(name)));
  const bytes = digest.slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80; // version 8
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
